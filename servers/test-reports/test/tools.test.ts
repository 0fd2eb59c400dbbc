// The tools over the wire: the built bin on stdio, driven by the official SDK client.
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession, type ToolOutcome } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The TypeScript source line itself, template literal included.
// biome-ignore lint/suspicious/noTemplateCurlyInString: this is source text, not a template
const SOURCE_LINE_11 = '> 11 |     throw new Error(`unknown coupon ${code}`);';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

let server: StdioSession;

beforeAll(async () => {
  server = await connectOverStdio({
    bin,
    clientName: 'test-reports-wire-test',
    args: ['--allowed-dir', fixtures],
  });
});
afterAll(async () => {
  await server.close();
});

function call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  return server.call(name, args);
}

async function success(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await call(name, args);
  if (result.isError) throw new Error(result.text);
  return result.structuredContent ?? {};
}

describe('tools/list', () => {
  it('lists the read-only tools with output schemas', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'test_summary',
      'list_failures',
      'failure_clusters',
      'suspect_commits',
      'failure_context',
      'flaky_tests',
      'compare_runs',
      'export_ctrf',
    ]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.outputSchema).toBeDefined();
    }
  });
});

describe('test_summary', () => {
  it('counts a Surefire run with reruns folded, the slowest test and the report', async () => {
    const summary = await success('test_summary', { path: 'maven' });
    expect(summary).toMatchObject({
      verdict: 'failing',
      total: 4,
      passed: 2,
      failed: 1,
      errored: 1,
      skipped: 0,
      flaky: 1,
      duration_ms: 1229,
      suite_count: 1,
      suites_truncated: false,
      reports: [
        { path: 'maven/target/surefire-reports/TEST-com.acme.cart.CartTest.xml', format: 'junit', tests: 4 },
      ],
    });
    expect(summary.slowest).toContainEqual({
      name: 'talksToThePriceService',
      classname: 'com.acme.cart.CartTest',
      duration_ms: 1204,
    });
    expect(typeof summary.stale).toBe('boolean');
  });

  it('reads "all green", "could not parse" and "nothing found" differently', async () => {
    const green = await success('test_summary', { path: 'hostile/passing.xml' });
    expect(green).toMatchObject({
      verdict: 'all_green',
      summary: 'All green: 2 tests in 1 report, none failed.',
    });

    const unreadable = await success('test_summary', { path: 'hostile' });
    expect(unreadable.verdict).toBe('unreadable');
    expect(unreadable.summary).toMatch(
      /^No failures among 4 tests read, but the answer is incomplete: 3 of the 4 reports could not be parsed/,
    );

    const missing = await call('test_summary', { path: 'go/calc' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/No test reports found at 'go\/calc' \(searched for/);
  });

  it('refuses a path outside the allowed directories without revealing where they are', async () => {
    const result = await call('test_summary', { path: '../../../../etc' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/outside the directories this server may read/);
    expect(result.text).not.toContain(fixtures);
  });
});

describe('list_failures', () => {
  it('pages through failures with ids, trimmed stacks and output', async () => {
    const first = await success('list_failures', { path: 'maven', limit: 1 });
    expect(first).toMatchObject({ total: 2, truncated: true, next_cursor: expect.any(String) });
    const [failure] = first.failures as Record<string, unknown>[];
    expect(failure).toMatchObject({
      name: 'totalsThePrices',
      status: 'failed',
      message: 'expected: <5> but was: <6>',
      type: 'org.opentest4j.AssertionFailedError',
      folded_frames: 15,
      attempts: 3,
    });
    const second = await success('list_failures', { path: 'maven', limit: 1, cursor: first.next_cursor });
    expect(second).toMatchObject({
      truncated: false,
      failures: [{ name: 'refusesNegativePrices', status: 'errored', output: 'adding price -1' }],
    });
    expect(second.next_cursor).toBeUndefined();
    // A cursor is tied to its list: another path's cursor is refused, naming the argument.
    const other = await server.client.callTool({
      name: 'list_failures',
      arguments: { path: 'jest/reports/results.json', cursor: first.next_cursor },
    });
    expect(other.isError).toBe(true);
  });

  it('explains an empty list', async () => {
    const green = await success('list_failures', { path: 'hostile/passing.xml' });
    expect(green).toMatchObject({ verdict: 'all_green', failures: [], total: 0 });
  });
});

describe('failure_context', () => {
  it('gives the assertion, the stack and the source lines of test and code under test', async () => {
    const list = await success('list_failures', { path: 'jest/reports/results.json' });
    const failure = (list.failures as { id: string; name: string }[]).find(
      (item) => item.name === 'rejects unknown coupons politely',
    );
    const context = await success('failure_context', {
      path: 'jest/reports/results.json',
      id: failure?.id,
      root: 'jest',
      context_lines: 0,
    });
    expect(context).toMatchObject({
      message: 'Error: unknown coupon SPRING',
      sources: [
        {
          role: 'test',
          file: 'jest/src/coupon.test.js',
          line: 9,
          snippet: "> 9 |     expect(applyCoupon(100, 'SPRING')).toBe(100);",
        },
        {
          role: 'code_under_test',
          file: 'jest/src/coupon.ts',
          line: 11,
          mapped_from: 'jest/lib/coupon.js',
          snippet: SOURCE_LINE_11,
        },
      ],
    });
  });

  it('finds the project root itself when none is given', async () => {
    const list = await success('list_failures', { path: 'go/reports/go-test.json' });
    const failure = (list.failures as { id: string; name: string }[]).find((item) => item.name === 'TestDiv');
    const context = await success('failure_context', { path: 'go/reports/go-test.json', id: failure?.id });
    expect((context.sources as { file: string }[]).map((source) => source.file)).toEqual([
      'go/calc/calc_test.go',
      'go/calc/calc.go',
    ]);
  });

  it('names an unknown id', async () => {
    const result = await call('failure_context', { path: 'maven', id: 'nope' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/No failure with id 'nope'.*call list_failures/);
  });
});

describe('flaky_tests and compare_runs', () => {
  it('finds the Surefire test that passed on a rerun', async () => {
    const flaky = await success('flaky_tests', { paths: ['maven'] });
    expect(flaky).toMatchObject({
      total: 1,
      runs_read: 1,
      flaky: [{ name: 'talksToThePriceService', attempts: 2, failed_attempts: 1 }],
    });
  });

  it('compares the gotestsum and go test -json views of one run', async () => {
    const comparison = await success('compare_runs', { base: 'hostile/passing.xml', head: 'maven' });
    expect(comparison).toMatchObject({
      new_failures: { total: 2, truncated: false },
      removed_tests: { total: 2 },
      new_tests: { total: 4 },
      fixed: { total: 0 },
    });
  });
});

describe('prompts and completions on the wire', () => {
  const complete: StdioSession['complete'] = (...args) => server.complete(...args);

  it('lists the four workflows', async () => {
    const { prompts } = await server.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      'triage-red-ci-run',
      'explain-failure',
      'find-flaky-tests',
      'find-suspect-commits',
    ]);
  });

  it('completes the cluster ids of the chosen reports, as failure_clusters lists them', async () => {
    const ids = await complete('find-suspect-commits', 'cluster', '', { path: 'maven' });
    const listed = await success('failure_clusters', { path: 'maven' });
    expect(ids.values).toEqual((listed.clusters as Array<{ id: string }>).map((cluster) => cluster.id));
    expect(ids.values.length).toBeGreaterThan(0);
  });

  it('completes the failure ids of the chosen reports, each accepted by failure_context', async () => {
    const ids = await complete('explain-failure', 'id', '', { path: 'maven' });
    const listed = await success('list_failures', { path: 'maven' });
    expect(ids.values).toEqual((listed.failures as Array<{ id: string }>).map((failure) => failure.id));
    for (const id of ids.values) {
      expect((await success('failure_context', { path: 'maven', id })).id).toBe(id);
    }
    expect((await complete('explain-failure', 'id', '', { path: '../' })).values).toEqual([]);
  });

  it('completes report paths, and nothing outside the allowed directory', async () => {
    expect((await complete('triage-red-ci-run', 'path', 'mav')).values).toEqual(['maven/']);
    expect((await complete('find-flaky-tests', 'paths', 'maven, je')).values).toEqual(['maven, jest/']);
    for (const value of ['../', '/etc/']) {
      expect((await complete('triage-red-ci-run', 'path', value)).values, value).toEqual([]);
    }
  });
});
