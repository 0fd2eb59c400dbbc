// Child process: the work test_summary does on one report (discover, stream, fold, count), timed.
import { discoverReports } from '../src/core/reportDiscovery.js';
import { summarizeRun } from '../src/core/runSummary.js';
import { readRun } from '../src/core/testRun.js';

const file = process.argv[2] as string;
const started = performance.now();
const run = await readRun(await discoverReports(file, (absolute) => absolute), { details: false });
const summary = summarizeRun(run);
const elapsedMs = performance.now() - started;
process.stdout.write(
  JSON.stringify({
    elapsedMs,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    heapUsedMb: process.memoryUsage().heapUsed / 2 ** 20,
    counts: {
      total: summary.total,
      failed: summary.failed,
      errored: summary.errored,
      skipped: summary.skipped,
    },
  }),
);
