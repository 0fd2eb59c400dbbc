// `node --test` (the Node.js running this suite) with its TAP and junit reporters; the oracle is its spec
// reporter's printed counts and failures.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectChanges } from './runChanges.js';
import {
  expectJUnitReadAlike,
  expectSummary,
  failureNamed,
  failuresOf,
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
    'package.json': JSON.stringify({ name: 'node-test-demo', private: true, type: 'module' }),
    'calc.mjs': 'export const add = (a, b) => a + b;\n',
    'calc.test.mjs': `import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { add } from './calc.mjs';

let slow;
after(() => clearTimeout(slow));

describe('calc', () => {
  it('passes', () => {
    assert.equal(add(2, 3), 5);
  });

  it('fails', () => {
    assert.equal(add(2, 2), 5);
  });

  it('throws with colour', () => {
    throw new Error('\\u001b[31mcaf\\u00e9 boom\\u001b[0m');
  });

  it('skipped', { skip: 'later' }, () => {});

  it('times out', { timeout: 50 }, () => new Promise((resolve) => {
    slow = setTimeout(resolve, 60_000);
  }));

  for (const value of [1, 2, 3]) {
    it(\`parameterised \${value}\`, () => {
      assert.notEqual(value, 2);
    });
  }

  it('fixed later', () => {
    assert.equal(add(1, 1), ${version === 1 ? 3 : 2});
  });

  it('broken later', () => {
    assert.equal(add(2, 2), ${version === 1 ? 4 : 5});
  });

  it('skipped later', { skip: ${version === 1 ? 'false' : "'quarantined'"} }, () => {
    assert.equal(add(0, 0), 1);
  });

  it('${version === 1 ? 'removed' : 'added'} later', () => {});
});
`,
    // The same name at the top level of two files: two tests.
    'one.test.mjs': "import { test } from 'node:test';\ntest('same name', () => {});\n",
    'two.test.mjs':
      "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\ntest('same name', () => { assert.fail('the second file fails'); });\n",
  };
}

let root: string;
let server: Server;
const ran: Ran[] = [];

beforeAll(async () => {
  root = await scratch('node-test');
  for (const version of [1, 2] as const) {
    await writeProject(root, project(version));
    await mkdir(path.join(root, `reports-v${version}`));
    await mkdir(path.join(root, `junit-v${version}`));
    const files = ['calc.test.mjs', 'one.test.mjs', 'two.test.mjs'];
    ran.push(
      run(
        process.execPath,
        [
          '--test',
          '--test-reporter=spec',
          '--test-reporter-destination=stdout',
          '--test-reporter=tap',
          `--test-reporter-destination=reports-v${version}/results.tap`,
          '--test-reporter=junit',
          `--test-reporter-destination=junit-v${version}/junit.xml`,
          ...files,
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

/** The spec reporter's `ℹ tests 14`, `ℹ pass 8`, `ℹ fail 4`, `ℹ skipped 2`, `ℹ todo 0` lines. */
function printedCounts(printed: string) {
  const count = (word: string) => printedNumber(printed, new RegExp(`^ℹ ${word} (\\d+)$`, 'm'));
  return {
    total: count('tests'),
    passed: count('pass'),
    failed: count('fail') + count('cancelled'),
    errored: 0,
    skipped: count('skipped') + count('todo'),
  };
}

describe('node --test TAP and junit reporters, against what node printed', () => {
  it('reads the JUnit the runner wrote with the fast markup scanner, exactly as saxes reads it', async () => {
    expect(await expectJUnitReadAlike(root)).toBeGreaterThan(0);
  });

  it('counts what node counted; the same name in two files is two tests', async () => {
    for (const version of [1, 2]) {
      const counts = printedCounts((ran[version - 1] as Ran).printed);
      expect(counts.failed).toBeGreaterThan(0);
      await expectSummary(server, `reports-v${version}`, counts);
      // node's junit names no file (classname="test"): the two top-level 'same name' tests are one there,
      // and its outcome is the failure, never a pass.
      const junit = await server.call('test_summary', { path: `junit-v${version}` });
      expect({ total: junit.total, failed: junit.failed, verdict: junit.verdict }).toEqual({
        total: counts.total - 1,
        failed: counts.failed,
        verdict: 'failing',
      });
    }
  });

  it("shows node's message and location for every failure", async () => {
    const printed = (ran[0] as Ran).printed;
    const failures = await failuresOf(server, 'reports-v1');
    expect(failures.length).toBe(printedCounts(printed).failed);
    for (const failure of failures) {
      // The spec reporter repeats each failure under `✖ failing tests:` with its message.
      expect(printed, failure.name).toContain((failure.message ?? '').split('\n')[0]);
    }
    expect(failureNamed(failures, 'throws with colour').message).toBe('café boom');
    expect(failureNamed(failures, 'times out').message).toBe('test timed out after 50ms');
    // node writes where the test is declared (`location`) for a failing test: file and line.
    const failing = failureNamed(failures, 'fails');
    expect(failing.file).toBe(`${root}/calc.test.mjs`);
    const declared = (project(1)['calc.test.mjs'] ?? '')
      .split('\n')
      .findIndex((line) => line.includes("it('fails'"));
    expect(failing.line).toBe(declared + 1);
    expect(failures.filter((failure) => failure.name.startsWith('same name'))).toHaveLength(1);
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
