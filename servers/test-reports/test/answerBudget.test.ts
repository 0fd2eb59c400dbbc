// Every tool's default answer fits the one budget (20,000 tokens and 50,000 characters of its text block) on
// large inputs — 300 report files, 15,000 tests, 5,000 failures with 80-frame stacks and long names, a
// thousand causes, a 2,000-failure cluster over a git history — and pages the rest with opaque cursors.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, defaultBudgetProblem, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHistory } from '../bench/generateHistory.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const FILES = 300;
const CASES_PER_FILE = 50;

let root: string;
let server: StdioSession;
let suspectsReports: string;

/** One report file of a run: every third test fails, each in its own way (a thousand causes), `flip` inverts. */
function report(file: number, flip: boolean): string {
  const cases: string[] = [];
  for (let n = 0; n < CASES_PER_FILE; n += 1) {
    const name = `test case ${n} of a suite with a long generated name ${'x'.repeat(120)}`;
    const fails = (n % 3 === 0) !== flip;
    if (!fails) {
      cases.push(`<testcase classname="pkg.Suite${file}" name="${name}" time="0.01"/>`);
      continue;
    }
    const cause = (file * 7 + n) % 1000;
    const frames = Array.from(
      { length: 80 },
      (_, frame) => `\tat com.acme.module${frame}.Service.call(Service.java:${frame * 1000 + cause})`,
    ).join('\n');
    cases.push(
      `<testcase classname="pkg.Suite${file}" name="${name}" time="0.02"><failure message="expected ${'long '.repeat(80)}value" type="java.lang.Assertion${cause}Error">java.lang.Assertion${cause}Error: expected value\n${frames}</failure><system-out>${'log line\n'.repeat(50)}</system-out></testcase>`,
    );
  }
  return `<?xml version="1.0"?><testsuite name="pkg.Suite${file}${'_'.repeat(200)}">${cases.join('')}</testsuite>`;
}

beforeAll(async () => {
  root = path.join(tmpdir(), `test-reports-budget-${process.pid}`);
  for (const [run, flip] of [
    ['run1', false],
    ['run2', true],
  ] as const) {
    const directory = path.join(root, run, 'test-results');
    await mkdir(directory, { recursive: true });
    for (let file = 0; file < FILES; file += 1)
      await writeFile(path.join(directory, `TEST-Suite${file}.xml`), report(file, flip));
  }
  const history = await generateHistory({ directory: root, commits: 300, failures: 2_000 });
  suspectsReports = path.relative(root, history.reports);
  server = await connectOverStdio({ bin, clientName: 'budget-test', args: ['--allowed-dir', root] });
}, 300_000);

afterAll(async () => {
  await server?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

async function fitting(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const outcome = await server.call(name, args, { timeoutMs: 240_000 });
  if (outcome.isError) throw new Error(`${name}: ${outcome.text}`);
  expect(await defaultBudgetProblem(outcome.text), name).toBeUndefined();
  return outcome.structuredContent as Record<string, unknown>;
}

describe('the default answer of every tool fits the budget on a large run', () => {
  it('lists, clusters and compares 5,000 failures from 300 reports in pages, the reports list cut', async () => {
    const summary = await fitting('test_summary', { path: 'run1' });
    expect(summary).toMatchObject({
      total: FILES * CASES_PER_FILE,
      suite_count: FILES,
      suites_truncated: true,
    });
    expect(summary.reports_total).toBe(FILES);
    const failures = await fitting('list_failures', { path: 'run1' });
    expect(failures).toMatchObject({
      truncated: true,
      next_cursor: expect.any(String),
      reports_total: FILES,
    });
    const next = await fitting('list_failures', { path: 'run1', cursor: failures.next_cursor });
    expect((next.failures as { id: string }[])[0]?.id).not.toBe(
      (failures.failures as { id: string }[])[0]?.id,
    );
    const grouped = await fitting('list_failures', { path: 'run1', group: true });
    expect(grouped.cluster_count).toBeGreaterThan(500);
    const clusters = await fitting('failure_clusters', { path: 'run1' });
    expect(clusters).toMatchObject({ truncated: true, next_cursor: expect.any(String) });
    const compared = await fitting('compare_runs', { base: 'run1', head: 'run2' });
    expect(compared).toMatchObject({ truncated: true, new_failures: { truncated: true } });
    expect(compared.base_reports_total).toBe(FILES);
    const flaky = await fitting('flaky_tests', { paths: ['run1', 'run2'] });
    expect(flaky).toMatchObject({ truncated: true, total: FILES * CASES_PER_FILE });
    const ctrf = await fitting('export_ctrf', { path: 'run1' });
    expect(ctrf.truncated).toBe(true);
    const [first] = failures.failures as { id: string }[];
    await fitting('failure_context', { path: 'run1', id: first?.id });
  }, 600_000);

  it('ranks suspects for a 2,000-failure cluster within the budget', async () => {
    const clusters = await fitting('failure_clusters', { path: suspectsReports });
    const [cluster] = clusters.clusters as { id: string }[];
    const suspects = await fitting('suspect_commits', { path: suspectsReports, cluster: cluster?.id });
    expect((suspects.suspects as unknown[]).length).toBeGreaterThan(0);
  }, 120_000);
});
