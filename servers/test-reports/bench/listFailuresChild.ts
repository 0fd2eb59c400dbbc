// Child process: the work list_failures does on one report (discover, stream with details, fold, trim
// stacks, pick the failures), timed; with `grouped`, read for signatures and clustered by cause as
// `group: true` does.
import path from 'node:path';
import { AllowedPaths } from '@groundwork/mcp-common';
import { clusterFailures } from '../src/core/failureClusters.js';
import { discoverReports } from '../src/core/reportDiscovery.js';
import { isFailing, readRun } from '../src/core/testRun.js';

const file = process.argv[2] as string;
const grouped = process.argv[3] === 'grouped';
const started = performance.now();
const cpuBefore = process.cpuUsage();
const found = await discoverReports(await AllowedPaths.under(path.dirname(file)), file);
const run = await readRun(found.reports, { details: true, signatures: grouped });
await found.close();
const failing = run.tests.values().filter(isFailing);
const clusters = grouped ? clusterFailures(failing).length : 0;
const elapsedMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
let failed = 0;
let errored = 0;
let skipped = 0;
for (const test of run.tests.values()) {
  if (test.status === 'failed') failed += 1;
  else if (test.status === 'errored') errored += 1;
  else if (test.status === 'skipped') skipped += 1;
}
process.stdout.write(
  JSON.stringify({
    elapsedMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    counts: { total: run.tests.size, failed, errored, skipped },
    clusters,
  }),
);
