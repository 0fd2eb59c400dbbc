import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AllowedPaths,
  answerBudget,
  type CompletionContext,
  MemoryBudget,
  type ToolContext,
} from '@groundwork/mcp-common';
import { describe, expect, it } from 'vitest';
import { isFailing, testId } from '../core/testRun.js';
import { fixturesDir, readAt } from '../testing/fixtureRun.js';
import { failureContextTool } from './failureContextTool.js';
import { completeFailureId } from './failureIdCompletion.js';

const allowedPaths = await AllowedPaths.under(fixturesDir);
const signal = new AbortController().signal;
const completion: CompletionContext = { signal, allowedPaths };

function complete(args: Record<string, string>, value = '') {
  return completeFailureId({ value, arguments: args }, completion);
}

async function failureContext(reports: string, id: string, paths = allowedPaths) {
  const quiet = () => undefined;
  const ctx: ToolContext = {
    signal,
    progress: quiet,
    log: { debug: quiet, info: quiet, warning: quiet, error: quiet },
    allowedPaths: paths,
    answer: answerBudget(),
    maxResultBytes: 4 * 1024 * 1024,
    memory: new MemoryBudget(64 * 1024 * 1024).forCall(signal),
  };
  return failureContextTool.apply(failureContextTool.definition.input.parse({ path: reports, id }), ctx);
}

const RUNS = [
  'maven',
  'gradle/build/test-results',
  'go/reports/go-test.json',
  'jest/reports/results.json',
  'jest/reports/junit.xml',
  'vitest/reports',
  'pytest/reports',
  'node-test/results.tap',
  'tap/parser.tap',
  'junit-variants/retries.xml',
  'junit-variants/statuses.xml',
];

describe('completing a failure id', () => {
  it.each(RUNS)('offers the failing tests of %s, each accepted by failure_context', async (reports) => {
    const run = await readAt(allowedPaths, reports, { details: false });
    const failing = [...run.tests.values()].filter(isFailing).map(testId);
    const passing = [...run.tests.values()].filter((test) => !isFailing(test)).map(testId);
    expect(failing.length).toBeGreaterThan(0);

    const offered = await complete({ path: reports });

    expect(offered.values).toEqual(failing);
    expect(offered).toMatchObject({ total: failing.length, hasMore: false });
    for (const id of passing) expect(offered.values).not.toContain(id);
    for (const id of offered.values) {
      const result = await failureContext(reports, id);
      expect(result.kind, `failure_context refused ${id} of ${reports}`).toBe('success');
    }
  });

  it('narrows by the start of the id or by words of the test name', async () => {
    const all = await complete({ path: 'maven' });
    const first = all.values[0] as string;
    expect((await complete({ path: 'maven' }, first.slice(0, 4))).values).toContain(first);
    const byName = await complete({ path: 'maven' }, 'NegativePrices');
    expect(byName.values).toEqual(['49f714909e84']);
    expect((await complete({ path: 'maven' }, 'no test is called this')).values).toEqual([]);
  });

  it('offers nothing, without failing, for a bad or missing path', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { path: '' },
      { path: 'does-not-exist' },
      { path: '../../../../../etc' },
      { path: '/etc/passwd' },
      { path: 'maven/pom.xml' },
      { path: 'hostile/xxe.xml' },
      { path: 'a\u0000b' },
    ];
    for (const args of cases) {
      expect(await complete(args), JSON.stringify(args)).toMatchObject({ values: [] });
    }
  });

  it('reads a report again once it was rewritten', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'failure-ids-'));
    const report = path.join(directory, 'TEST-rewritten.xml');
    const junit = (name: string) =>
      `<testsuite name="s"><testcase classname="c" name="${name}"><failure message="no"/></testcase></testsuite>`;
    const paths = await AllowedPaths.under(directory);
    const ask = () =>
      completeFailureId({ value: '', arguments: { path: report } }, { signal, allowedPaths: paths });

    writeFileSync(report, junit('first'));
    const before = await ask();
    writeFileSync(report, junit('second, a longer name'));
    const after = await ask();

    expect(before.values).toEqual([testId({ suite: 's', classname: 'c', name: 'first' })]);
    expect(after.values).toEqual([testId({ suite: 's', classname: 'c', name: 'second, a longer name' })]);
    expect((await failureContext(report, after.values[0] as string, paths)).kind).toBe('success');
  });
});
