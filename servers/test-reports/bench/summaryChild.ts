// Child process: the work test_summary does on one report (discover, stream, fold, count), timed.
import path from 'node:path';
import { AllowedPaths } from '@groundwork/mcp-common';
import { discoverReports } from '../src/core/reportDiscovery.js';
import { summarizeRun } from '../src/core/runSummary.js';
import { readRun } from '../src/core/testRun.js';

const file = process.argv[2] as string;
const started = performance.now();
const cpuBefore = process.cpuUsage();
// As the server does it: the report opened through AllowedPaths, read through its handle.
const found = await discoverReports(await AllowedPaths.under(path.dirname(file)), file);
const run = await readRun(found.reports, { details: false });
await found.close();
const summary = summarizeRun(run);
const elapsedMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const cpuMs = (cpu.user + cpu.system) / 1000;
process.stdout.write(
  JSON.stringify({
    elapsedMs,
    cpuMs,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    counts: {
      total: summary.total,
      failed: summary.failed,
      errored: summary.errored,
      skipped: summary.skipped,
    },
  }),
);
