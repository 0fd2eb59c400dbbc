// Vitest (a devDependency) with its json and junit reporters; the oracle is Vitest's printed summary and
// its `FAIL` blocks.
import { rm } from 'node:fs/promises';
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
    'package.json': JSON.stringify({ name: 'vitest-demo', private: true, type: 'module' }),
    'vitest.config.mjs': 'export default { test: { include: ["**/*.test.mjs"] } };\n',
    'calc.mjs': 'export const add = (a, b) => a + b;\n',
    'calc.test.mjs': `import { describe, expect, test } from 'vitest';
import { add } from './calc.mjs';

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

  let flakyAttempts = 0;
  test('flaky', { retry: 2 }, () => {
    flakyAttempts += 1;
    expect(flakyAttempts).toBe(3);
  });

  test('fails every attempt', { retry: 1 }, () => {
    expect(add(1, 2)).toBe(4);
  });

  test('fixed later', () => {
    expect(add(1, 1)).toBe(${version === 1 ? 3 : 2});
  });

  test('broken later', () => {
    expect(add(2, 2)).toBe(${version === 1 ? 4 : 5});
  });

  test${version === 1 ? '' : '.skip'}('skipped later', () => {
    expect(add(0, 0)).toBe(1);
  });

  test('${version === 1 ? 'removed' : 'added'} later', () => {});
});
`,
    'broken.test.mjs':
      "import './does-not-exist.mjs';\nimport { test } from 'vitest';\ntest('never runs', () => {});\n",
  };
}

let root: string;
let server: Server;
const ran: Ran[] = [];

beforeAll(async () => {
  root = await scratch('vitest');
  for (const version of [1, 2] as const) {
    await writeProject(root, project(version));
    ran.push(
      run(
        path.join(nodeBin, 'vitest'),
        [
          'run',
          '--root',
          root,
          '--reporter=default',
          '--reporter=json',
          '--reporter=junit',
          `--outputFile.json=reports-v${version}/results.json`,
          `--outputFile.junit=junit-v${version}/junit.xml`,
        ],
        root,
      ),
    );
  }
  server = await startServer(root);
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** `Tests  4 failed | 7 passed | 2 skipped | 1 todo (14)`; a file that failed to load is an error. */
function printedCounts(printed: string) {
  const line = /^\s*Tests\s+(.*)$/m.exec(printed)?.[1] ?? '';
  const count = (word: string) => printedNumber(line, new RegExp(`(\\d+) ${word}`));
  const errored = printedNumber(printed, /Failed Suites (\d+)/);
  const counts = {
    passed: count('passed'),
    failed: count('failed'),
    errored,
    skipped: count('skipped') + count('todo'),
  };
  return { total: counts.passed + counts.failed + counts.errored + counts.skipped, ...counts };
}

describe('vitest json and junit reporters, against what Vitest printed', () => {
  it('reads the JUnit the runner wrote with the fast markup scanner, exactly as saxes reads it', async () => {
    expect(await expectJUnitReadAlike(root)).toBeGreaterThan(0);
  });

  it('counts what Vitest counted, retries included', async () => {
    for (const version of [1, 2]) {
      const counts = printedCounts((ran[version - 1] as Ran).printed);
      expect(counts.errored).toBe(1);
      const summary = await expectSummary(server, `reports-v${version}`, counts);
      // The JSON keeps one message per failed attempt; the junit reporter drops a flaky pass's attempts.
      expect(summary.flaky).toBe(1);
      const junit = await server.call('test_summary', { path: `junit-v${version}` });
      expect((junit.failed as number) + (junit.errored as number)).toBe(counts.failed + counts.errored);
    }
    const failures = await failuresOf(server, 'reports-v1');
    expect(failureNamed(failures, 'fails every attempt')).toBeDefined();
    const flaky = (await server.call('flaky_tests', { paths: ['reports-v1'] })).flaky as Record<
      string,
      unknown
    >[];
    expect(flaky).toMatchObject([{ name: 'flaky', attempts: 3, failed_attempts: 2 }]);
    const context = await server.call('failure_context', {
      path: 'reports-v1',
      id: failureNamed(failures, 'fails every attempt').id,
    });
    expect(context.attempts).toBe(2);
  });

  it("shows Vitest's message and the line it pointed at for every failure", async () => {
    const printed = (ran[0] as Ran).printed;
    const failures = await failuresOf(server, 'reports-v1');
    const printedNames = [...printed.matchAll(/^\s*FAIL\s+calc\.test\.mjs > calc > (.+)$/gm)].map((m) =>
      m[1]?.trim(),
    );
    expect(
      failures
        .filter((failure) => failure.status === 'failed')
        .map((failure) => failure.name)
        .sort(),
    ).toEqual([...new Set(printedNames)].sort());
    for (const failure of failures) {
      expect(printed, failure.name).toContain((failure.message ?? '').split('\n')[0]);
    }
    expect(failureNamed(failures, 'throws with colour').message).toBe('Error: café boom');
    // `❯ calc.test.mjs:10:23` under `FAIL  calc.test.mjs > calc > fails`.
    const block = printed.slice(printed.indexOf('FAIL  calc.test.mjs > calc > fails'));
    const pointed = Number(/❯ calc\.test\.mjs:(\d+):\d+/.exec(block)?.[1]);
    const context = await server.call('failure_context', {
      path: 'reports-v1',
      id: failureNamed(failures, 'fails').id,
    });
    expect((context.sources as { file: string; line: number }[])[0]).toMatchObject({
      file: 'calc.test.mjs',
      line: pointed,
    });
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
