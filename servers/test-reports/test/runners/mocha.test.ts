// mocha with mocha-junit-reporter (devDependencies); the oracle is mocha's spec reporter, run on the same
// project (mocha takes one reporter per run).
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
    'package.json': JSON.stringify({ name: 'mocha-demo', private: true }),
    'calc.js': 'exports.add = (a, b) => a + b;\n',
    'test/calc.test.js': `const assert = require('node:assert/strict');
const { add } = require('../calc');

describe('calc', function () {
  it('passes', function () {
    assert.equal(add(2, 3), 5);
  });

  it('fails', function () {
    assert.equal(add(2, 2), 5);
  });

  it('throws with colour', function () {
    throw new Error('\\u001b[31mcaf\\u00e9 boom\\u001b[0m');
  });

  it.skip('skipped', function () {});
  it('pending');

  let slow;
  after(function () {
    clearTimeout(slow);
  });
  it('times out', function () {
    this.timeout(50);
    return new Promise((resolve) => {
      slow = setTimeout(resolve, 60000);
    });
  });

  [1, 2, 3].forEach(function (value) {
    it('parameterised ' + value, function () {
      assert.notEqual(value, 2);
    });
  });

  let attempts = 0;
  it('flaky', function () {
    this.retries(2);
    attempts += 1;
    assert.equal(attempts, 2);
  });

  it('fixed later', function () {
    assert.equal(add(1, 1), ${version === 1 ? 3 : 2});
  });

  it('broken later', function () {
    assert.equal(add(2, 2), ${version === 1 ? 4 : 5});
  });

  it${version === 1 ? '' : '.skip'}('skipped later', function () {
    assert.equal(add(0, 0), 1);
  });

  it('${version === 1 ? 'removed' : 'added'} later', function () {});
});

describe('hooks', function () {
  beforeEach(function () {
    throw new Error('setup broke');
  });
  it('never runs', function () {});
});
`,
  };
}

let root: string;
let server: Server;
const printed: Ran[] = [];

beforeAll(async () => {
  root = await scratch('mocha');
  const mocha = path.join(nodeBin, 'mocha');
  for (const version of [1, 2] as const) {
    await writeProject(root, project(version));
    printed.push(run(mocha, ['--reporter', 'spec', 'test/*.test.js'], root));
    // Without includePending the reporter leaves skipped tests out.
    const options = `mochaFile=reports-v${version}/junit.xml,includePending=true`;
    run(mocha, ['--reporter', 'mocha-junit-reporter', '--reporter-options', options, 'test/*.test.js'], root);
  }
  server = await startServer(root);
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** `  9 passing (80ms)`, `  2 pending`, `  5 failing`. */
function printedCounts(text: string) {
  const passed = printedNumber(text, /^\s+(\d+) passing/m);
  const skipped = printedNumber(text, /^\s+(\d+) pending/m);
  const failed = printedNumber(text, /^\s+(\d+) failing/m);
  return { total: passed + skipped + failed, passed, failed, errored: 0, skipped };
}

describe('mocha-junit-reporter, against what mocha printed', () => {
  it('reads the JUnit the runner wrote with the fast markup scanner, exactly as saxes reads it', async () => {
    expect(await expectJUnitReadAlike(root)).toBeGreaterThan(0);
  });

  it('counts what mocha counted (a failing hook is one failure, its tests do not run)', async () => {
    for (const version of [1, 2]) {
      const counts = printedCounts((printed[version - 1] as Ran).printed);
      expect(counts.failed).toBeGreaterThan(0);
      // mocha-junit-reporter writes only the final attempt: the flaky test is a plain pass.
      await expectSummary(server, `reports-v${version}`, counts);
    }
  });

  it("shows mocha's message for every failure", async () => {
    const text = (printed[0] as Ran).printed;
    const failures = await failuresOf(server, 'reports-v1');
    // mocha's numbered list: `  1) calc\n       fails:\n\n      AssertionError [ERR_ASSERTION]: Expected values …`
    // The reporter writes mocha's message with its line breaks as spaces.
    const flat = (value: string) => value.replace(/\s+/g, ' ').trim();
    for (const failure of failures) {
      expect(flat(text), failure.name).toContain(flat(failure.message ?? ''));
    }
    expect(failureNamed(failures, 'calc throws with colour').message).toBe('café boom');
    expect(failureNamed(failures, 'calc times out').message).toMatch(/^Timeout of 50ms exceeded/);
    expect(failures.some((failure) => failure.name.includes('"before each" hook'))).toBe(true);
    // The stack mocha wrote points at the failing assertion: `test/calc.test.js:10:12`.
    const pointed = /calc\.test\.js:(\d+):\d+/.exec(text.slice(text.indexOf('fails:')))?.[1];
    const context = await server.call('failure_context', {
      path: 'reports-v1',
      id: failureNamed(failures, 'calc fails').id,
    });
    expect((context.sources as { file: string; line: number }[])[0]).toMatchObject({
      file: 'test/calc.test.js',
      line: Number(pointed),
    });
  });

  it('sees the changes between the two runs', async () => {
    await expectChanges(server, 'reports-v1', 'reports-v2', {
      new_failures: ['calc broken later'],
      fixed: ['calc fixed later'],
      newly_skipped: ['calc skipped later'],
      new_tests: ['calc added later'],
      removed_tests: ['calc removed later'],
    });
  });
});
