// CTRF as the reporters write it: jest-, vitest- and mocha-ctrf-json-reporter (devDependencies) run on one
// small project each. The oracle is the reporter's own `results.summary` and its tests' messages; then each
// run is written back as CTRF and checked with the ctrf reference library's validator (its published schema).
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from 'ctrf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectSummary,
  failuresOf,
  nodeBin,
  run,
  type Server,
  scratch,
  startServer,
  writeProject,
} from './runnerHarness.js';

const modules = fileURLToPath(new URL('../../node_modules/', import.meta.url));
const reporter = (name: string) => path.join(modules, name);

const CALC = 'exports.add = (a, b) => a + b;\n';

const PROJECTS: Record<string, { files: Record<string, string>; command: string[] }> = {
  jest: {
    files: {
      'package.json': JSON.stringify({ name: 'ctrf-jest', private: true }),
      'calc.js': CALC,
      'calc.test.js': `const { add } = require('./calc');
jest.retryTimes(2);
let attempts = 0;
describe('calc', () => {
  test('adds', () => expect(add(2, 3)).toBe(5));
  test('fails', () => expect(add(2, 2)).toBe(5));
  test('throws', () => { throw new TypeError('caf\\u00e9 is not a function'); });
  test.skip('later', () => {});
  test.todo('some day');
  test('flaky', () => { attempts += 1; expect(attempts).toBe(2); });
});
`,
    },
    command: [
      path.join(nodeBin, 'jest'),
      '--ci',
      '--reporters=default',
      `--reporters=${reporter('jest-ctrf-json-reporter')}`,
    ],
  },
  vitest: {
    files: {
      'package.json': JSON.stringify({ name: 'ctrf-vitest', private: true, type: 'module' }),
      // vitest-ctrf-json-reporter 0.0.3 writes its report in onFinished, which Vitest 4 no longer calls
      // (it calls onTestRunEnd): the reporter runs unchanged, handed the files when the run ends.
      'vitest.config.mjs': `import loaded from ${JSON.stringify(`${reporter('vitest-ctrf-json-reporter')}/dist/index.js`)};
const Reporter = loaded.default ?? loaded;
const ctrf = new Reporter({});
let vitest;
const adapted = {
  onInit(ctx) { vitest = ctx; ctrf.onInit(ctx); },
  onTestRunEnd() { ctrf.onFinished(vitest.state.getFiles(), []); },
};
export default { test: { include: ['**/*.test.mjs'], reporters: ['default', adapted] } };
`,
      'calc.test.mjs': `import { describe, expect, test } from 'vitest';
let attempts = 0;
describe('calc', () => {
  test('adds', () => expect(2 + 3).toBe(5));
  test('fails', () => expect(2 + 2).toBe(5));
  test('throws', () => { throw new RangeError('out of range: 42'); });
  test.skip('later', () => {});
  test('flaky', { retry: 2 }, () => { attempts += 1; expect(attempts).toBe(2); });
});
`,
    },
    command: [path.join(nodeBin, 'vitest'), 'run'],
  },
  mocha: {
    files: {
      'package.json': JSON.stringify({ name: 'ctrf-mocha', private: true }),
      'test/calc.test.js': `const assert = require('node:assert');
describe('calc', function () {
  it('adds', () => assert.strictEqual(2 + 3, 5));
  it('fails', () => assert.strictEqual(2 + 2, 5));
  it('throws', () => { throw new Error('boom at 0x1f'); });
  it.skip('later', () => {});
});
`,
    },
    command: [
      path.join(nodeBin, 'mocha'),
      '--reporter',
      reporter('mocha-ctrf-json-reporter'),
      'test/*.test.js',
    ],
  },
};

let root: string;
let server: Server;

beforeAll(async () => {
  root = await scratch('ctrf');
  for (const [name, project] of Object.entries(PROJECTS)) {
    const folder = path.join(root, name);
    await writeProject(folder, project.files);
    const [command, ...args] = project.command as [string, ...string[]];
    run(command, args, folder);
  }
  server = await startServer(root);
}, 180_000);
afterAll(async () => {
  await server?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

interface CtrfTest {
  name: string;
  status: string;
  rawStatus?: string;
  message?: string;
}
interface Ctrf {
  results: { summary: Record<string, number>; tests: CtrfTest[] };
}

async function written(name: string): Promise<Ctrf> {
  const folder = path.join(root, name);
  const file = name === 'vitest' ? 'vitest-ctrf/report.json' : 'ctrf/ctrf-report.json';
  return JSON.parse(await readFile(path.join(folder, file), 'utf8')) as Ctrf;
}

describe.each(Object.keys(PROJECTS))('CTRF from %s-ctrf-json-reporter', (name) => {
  it("counts what the reporter counted in its summary, and shows each failure's message", async () => {
    const report = await written(name);
    const { summary, tests } = report.results;
    expect(summary.failed).toBeGreaterThan(0);
    // Jest's test.todo is CTRF's `other` with rawStatus `todo`: a test that did not run, so a skip.
    const todo = tests.filter((test) => test.status === 'other' && test.rawStatus === 'todo').length;
    const read = await expectSummary(server, name, {
      total: summary.tests ?? 0,
      passed: summary.passed ?? 0,
      failed: summary.failed ?? 0,
      errored: (summary.other ?? 0) - todo,
      skipped: (summary.skipped ?? 0) + (summary.pending ?? 0) + todo,
    });
    expect((read.reports as { format: string }[]).map((entry) => entry.format)).toEqual(['ctrf']);
    const failures = await failuresOf(server, name);
    const failed = tests.filter((test) => test.status === 'failed');
    expect(failures.map((failure) => failure.name).sort()).toEqual(failed.map((test) => test.name).sort());
    for (const test of failed) {
      const failure = failures.find((candidate) => candidate.name === test.name);
      const firstLine = (test.message ?? '').trim().split('\n')[0] ?? '';
      expect(failure?.message, test.name).toContain(firstLine);
    }
  });

  it("writes the run back as CTRF that the ctrf library validates, with the reporter's counts", async () => {
    const { summary, tests } = (await written(name)).results;
    const todo = tests.filter((test) => test.status === 'other' && test.rawStatus === 'todo').length;
    const answer = await server.call('export_ctrf', { path: name });
    const document = answer.ctrf as Ctrf & { results: { tests: { status: string; rawStatus: string }[] } };
    const validation = validate(document);
    expect(validation.errors ?? [], JSON.stringify(validation.errors)).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(answer.truncated).toBe(false);
    expect(document.results.summary).toMatchObject({ tests: summary.tests, passed: summary.passed });
    const failedAgain = document.results.tests.filter((test) => test.status === 'failed').length;
    expect(failedAgain).toBe((summary.failed ?? 0) + (summary.other ?? 0) - todo);
  });
});
