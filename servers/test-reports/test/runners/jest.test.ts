// Jest (a devDependency) with `--json` and jest-junit; the oracle is Jest's printed summary and its
// `●` failure blocks.
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectChanges } from './runChanges.js';
import {
  expectJUnitReadAlike,
  expectSummary,
  failureNamed,
  failuresOf,
  nodeBin,
  printedNumber,
  type Ran,
  run,
  type Server,
  scratch,
  startServer,
  writeProject,
} from './runnerHarness.js';

function project(version: 1 | 2): Record<string, string> {
  return {
    'package.json': JSON.stringify({ name: 'jest-demo', private: true }),
    'calc.js': 'exports.add = (a, b) => a + b;\n',
    'calc.test.js': `const { add } = require('./calc');

describe('calc', () => {
  test('passes', () => {
    expect(add(2, 3)).toBe(5);
  });

  test('fails', () => {
    expect(add(2, 2)).toBe(5);
  });

  test('throws with colour', () => {
    throw new Error('\\u001b[31mcaf\\u00e9 boom\\u001b[0m');
  });

  test.skip('skipped', () => {});
  test.todo('todo');

  test.each([1, 2, 3])('parameterised %i', (value) => {
    expect(value).not.toBe(2);
  });

  test('fixed later', () => {
    expect(add(1, 1)).toBe(${version === 1 ? 3 : 2});
  });

  test('broken later', () => {
    expect(add(2, 2)).toBe(${version === 1 ? 4 : 5});
  });

  ${version === 1 ? 'test' : 'test.skip'}('skipped later', () => {
    expect(add(0, 0)).toBe(1);
  });

  test('${version === 1 ? 'removed' : 'added'} later', () => {});
});
`,
    'flaky.test.js': `jest.retryTimes(2);
let attempts = 0;
test('flaky', () => {
  attempts += 1;
  expect(attempts).toBe(2);
});
`,
    'other.test.js': "test('passes', () => {});\n",
    'broken.test.js': "require('./does-not-exist');\ntest('never runs', () => {});\n",
  };
}

let root: string;
let server: Server;
const ran: Ran[] = [];

beforeAll(async () => {
  root = await scratch('jest');
  for (const version of [1, 2] as const) {
    await writeProject(root, project(version));
    await mkdir(path.join(root, `reports-v${version}`));
    ran.push(
      run(
        path.join(nodeBin, 'jest'),
        [
          '--ci',
          '--testLocationInResults',
          '--json',
          `--outputFile=reports-v${version}/results.json`,
          '--reporters=default',
          '--reporters=jest-junit',
        ],
        root,
        {
          JEST_JUNIT_OUTPUT_DIR: `junit-v${version}`,
          JEST_JUNIT_OUTPUT_NAME: 'junit.xml',
          // Without it jest-junit leaves a test file that failed to run out of the report altogether.
          JEST_JUNIT_REPORT_TEST_SUITE_ERRORS: 'true',
          JEST_JUNIT_ADD_FILE_ATTRIBUTE: 'true',
        },
      ),
    );
  }
  server = await startServer(root);
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (root !== undefined && !process.env.KEEP_RUNNER_DIRS) await rm(root, { recursive: true, force: true });
});

/** `Tests:       3 failed, 1 skipped, 1 todo, 6 passed, 11 total`; a file that failed to run is an error. */
function printedCounts(printed: string) {
  const line = /^Tests:\s+(.*)$/m.exec(printed)?.[1] ?? '';
  const count = (word: string) => printedNumber(line, new RegExp(`(\\d+) ${word}`));
  const errored = (printed.match(/● Test suite failed to run/g) ?? []).length;
  return {
    total: count('total') + errored,
    passed: count('passed'),
    failed: count('failed'),
    errored,
    skipped: count('skipped') + count('todo'),
  };
}

describe('jest --json and jest-junit, against what Jest printed', () => {
  it('reads the JUnit the runner wrote with the fast markup scanner, exactly as saxes reads it', async () => {
    expect(await expectJUnitReadAlike(root)).toBeGreaterThan(0);
  });

  it('counts what Jest counted, in both runs and both formats', async () => {
    for (const version of [1, 2]) {
      const printed = (ran[version - 1] as Ran).printed;
      const counts = printedCounts(printed);
      expect(counts.failed).toBeGreaterThan(0);
      const summary = await expectSummary(server, `reports-v${version}`, counts);
      // Jest's JSON keeps retries (invocations); jest-junit does not.
      expect(summary.flaky).toBe(1);
      // jest-junit (with reportTestSuiteErrors) writes the file that failed to run as a test case of its own.
      const junit = await server.call('test_summary', { path: `junit-v${version}` });
      expect({ total: junit.total, failing: (junit.failed as number) + (junit.errored as number) }).toEqual({
        total: counts.total,
        failing: counts.failed + counts.errored,
      });
    }
  });

  it("shows Jest's message and the line it pointed at for every failure", async () => {
    const printed = (ran[0] as Ran).printed;
    const failures = await failuresOf(server, 'reports-v1');
    // `● calc › fails` heads each block Jest printed for a failed test.
    const printedNames = [...printed.matchAll(/^\s+● (?:calc › )?(.+)$/gm)]
      .map((match) => match[1] ?? '')
      .filter((name) => name !== 'Test suite failed to run');
    expect(
      failures
        .filter((failure) => failure.status === 'failed')
        .map((failure) => failure.name)
        .sort(),
    ).toEqual([...new Set(printedNames)].sort());
    for (const failure of failures.filter((candidate) => candidate.status === 'failed')) {
      const firstLine = (failure.message ?? '').split('\n')[0]?.replace(/^Error: /, '') ?? '';
      expect(printed, failure.name).toContain(firstLine.trim());
    }
    expect(failureNamed(failures, 'throws with colour').message).toBe('Error: café boom');
    const failing = failureNamed(failures, 'fails');
    // Jest's code frame: `> 9 |     expect(add(2, 2)).toBe(5);` under `● calc › fails`.
    const block = printed.slice(printed.indexOf('● calc › fails'));
    const pointed = Number(/^\s+>\s*(\d+) \|/m.exec(block)?.[1]);
    const context = await server.call('failure_context', { path: 'reports-v1', id: failing.id });
    expect((context.sources as { file: string; line: number }[])[0]).toMatchObject({
      file: 'calc.test.js',
      line: pointed,
    });
    expect(failureNamed(failures, '(test file failed to run)').message).toContain(
      "Cannot find module './does-not-exist'",
    );
  });

  it('reads a failure message that is not a string (a thrown plain object) instead of crashing', async () => {
    const thrown = await scratch('jest-thrown');
    try {
      await writeProject(thrown, {
        'package.json': JSON.stringify({ name: 'jest-thrown', private: true }),
        'thrown.test.js':
          "test('throws a plain object', () => {\n  throw { code: 42, message: { nested: true } };\n});\ntest('passes', () => {});\n",
      });
      const printed = run(
        path.join(nodeBin, 'jest'),
        ['--ci', '--json', '--outputFile=results.json'],
        thrown,
      );
      const report = JSON.parse(await readFile(path.join(thrown, 'results.json'), 'utf8'));
      const written = report.testResults[0].assertionResults[0].failureMessages;
      // What Jest wrote: an object where a string belongs.
      expect(typeof written[0]).not.toBe('string');
      const other = await startServer(thrown);
      try {
        await expectSummary(other, 'results.json', printedCounts(printed.printed));
        const failure = failureNamed(await failuresOf(other, 'results.json'), 'throws a plain object');
        expect(failure.message).toBe(JSON.stringify(written[0]));
        const context = await other.call('failure_context', { path: 'results.json', id: failure.id });
        expect(context.message).toBe(JSON.stringify(written[0]));
      } finally {
        await other.close();
      }
    } finally {
      await rm(thrown, { recursive: true, force: true });
    }
  });

  it('sees the changes between the two runs', async () => {
    await expectChanges(server, 'reports-v1', 'reports-v2', {
      new_failures: ['broken later'],
      fixed: ['fixed later'],
      newly_skipped: ['skipped later'],
      new_tests: ['added later'],
      removed_tests: ['removed later'],
    });
  });
});
