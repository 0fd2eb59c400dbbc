// Child process: what report tools usually do — read the file and parse it with junit2json (xml2js).
import { readFile } from 'node:fs/promises';
import { parse, type TestCase, type TestSuite } from 'junit2json';

const file = process.argv[2] as string;
const started = performance.now();
const cpuBefore = process.cpuUsage();
const report = await parse(await readFile(file, 'utf8'));
const counts = { total: 0, failed: 0, errored: 0, skipped: 0 };
const visit = (suites: TestSuite[] | undefined) => {
  for (const suite of suites ?? []) {
    for (const testCase of (suite.testcase ?? []) as TestCase[]) {
      counts.total += 1;
      if (testCase.skipped !== undefined) counts.skipped += 1;
      else if (testCase.error !== undefined) counts.errored += 1;
      else if (testCase.failure !== undefined) counts.failed += 1;
    }
  }
};
visit(report != null && 'testsuite' in report ? (report.testsuite as TestSuite[]) : undefined);
const elapsedMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const cpuMs = (cpu.user + cpu.system) / 1000;
process.stdout.write(
  JSON.stringify({ elapsedMs, cpuMs, maxRssMb: process.resourceUsage().maxRSS / 1024, counts }),
);
