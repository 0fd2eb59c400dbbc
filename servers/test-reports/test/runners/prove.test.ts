// Perl's prove: its TAP archive (`prove --merge --archive`, one TAP stream per test script, Test::More's
// diagnostics merged in) and TAP::Harness::JUnit. The oracle is prove's printed summary.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectChanges } from './runChanges.js';
import {
  available,
  expectJUnitReadAlike,
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

const present = available('prove', ['-V']);
const junitHarness = present && available('perl', ['-MTAP::Harness::JUnit', '-e', '1']);

function project(version: 1 | 2): Record<string, string> {
  return {
    't/math.t': `use strict;
use warnings;
use utf8;
use Test::More tests => 9;
binmode Test::More->builder->$_, ':encoding(UTF-8)' for qw(output failure_output todo_output);

ok(1, 'passes');
is(2 + 2, 5, 'adds');
ok(1, "caf\\x{e9} works");
SKIP: { skip 'later', 1; ok(0, 'skipped'); }
TODO: { local $TODO = 'known bug'; ok(0, 'todo'); }
is(1 + 1, ${version === 1 ? 3 : 2}, 'fixed later');
is(2 + 2, ${version === 1 ? 4 : 5}, 'broken later');
${version === 1 ? "ok(0, 'skipped later');" : "TODO: { local $TODO = 'quarantined'; ok(0, 'skipped later'); }"}
ok(1, '${version === 1 ? 'removed' : 'added'} later');
`,
    // Dies after two of its five planned tests: prove reports a bad plan.
    't/dies.t':
      "use strict;\nuse warnings;\nuse Test::More tests => 5;\nok(1, 'first');\nok(1, 'second');\nexit 0;\n",
    // The same test name as in math.t, passing here: another test.
    't/same.t': "use strict;\nuse warnings;\nuse Test::More tests => 1;\nok(1, 'adds');\n",
  };
}

let root: string;
let server: Server;
const ran: Ran[] = [];
/** One script run by perl itself: Test::More's diagnostics as it printed them. */
let direct: Ran;

beforeAll(async () => {
  if (!present) return;
  root = await scratch('prove');
  for (const version of [1, 2] as const) {
    await writeProject(root, project(version));
    if (version === 1) direct = run('perl', ['t/math.t'], root);
    ran.push(run('prove', ['--merge', '--archive', `archive-v${version}.tar`, 't/'], root));
    await mkdir(path.join(root, `reports-v${version}`));
    run('tar', ['-xf', `archive-v${version}.tar`, '-C', `reports-v${version}`], root);
    if (junitHarness) {
      run('prove', ['--merge', '--harness', 'TAP::Harness::JUnit', 't/'], root, {
        JUNIT_OUTPUT_FILE: path.join(root, `junit-v${version}.xml`),
      });
    }
  }
  server = await startServer(root);
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (root !== undefined && !process.env.KEEP_RUNNER_DIRS) await rm(root, { recursive: true, force: true });
});

/**
 * `Files=3, Tests=11`, per script `t/math.t (Wstat: 256 Tests: 9 Failed: 3)`, and `Parse errors: Bad plan`
 * for a script that did not run what it planned (an error of the script, beside its tests).
 */
function printedCounts(printed: string) {
  const tests = printedNumber(printed, /^Files=\d+, Tests=(\d+)/m);
  const failed = [...printed.matchAll(/\(Wstat: .* Failed: (\d+)\)/g)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
  const badPlans = (printed.match(/Parse errors: (Bad plan|No plan found)/g) ?? []).length;
  return { total: tests + badPlans, failed, errored: badPlans };
}

describe.skipIf(!present)("prove's TAP archive, against what prove printed", () => {
  it('counts what prove counted; the script that died is never green', async () => {
    for (const version of [1, 2]) {
      const printed = (ran[version - 1] as Ran).printed;
      expect(printed).toMatch(/Result: FAIL/);
      const counts = printedCounts(printed);
      expect(counts.errored).toBe(1);
      const summary = await server.call('test_summary', { path: `reports-v${version}` });
      expect({ total: summary.total, failed: summary.failed, errored: summary.errored }).toEqual(counts);
      expect(summary.verdict).toBe('failing');
    }
  });

  it("shows Test::More's diagnostics as each failure's message and location", async () => {
    const failures = await failuresOf(server, 'reports-v1');
    const adds = failureNamed(failures, 'adds');
    expect(adds.message).toBe("Failed test 'adds'\nat t/math.t line 8.\n       got: '4'\n  expected: '5'");
    expect({ file: adds.file, line: adds.line }).toEqual({ file: 't/math.t', line: 8 });
    expect(failureNamed(failures, '(plan not fulfilled)').message).toBe(
      'Planned 5 tests but ran 2: the test script ended early',
    );
    // Test::More's own words for the same failure, as the script printed them.
    for (const line of (adds.message ?? '').split('\n')) expect(direct.printed).toContain(line);
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

describe.skipIf(!junitHarness)('TAP::Harness::JUnit, against what prove printed', () => {
  it('reads the JUnit the runner wrote with the fast markup scanner, exactly as saxes reads it', async () => {
    expect(await expectJUnitReadAlike(root)).toBeGreaterThan(0);
  });

  it('counts the failures prove counted, the bad plan included', async () => {
    const counts = printedCounts((ran[0] as Ran).printed);
    const summary = await server.call('test_summary', { path: 'junit-v1.xml' });
    // It writes the bad plan as a failed test case of its own, and leaves the TODO test out altogether.
    expect({
      total: summary.total,
      failing: (summary.failed as number) + (summary.errored as number),
    }).toEqual({
      total: counts.total - 1,
      failing: counts.failed + counts.errored,
    });
    expect(summary.verdict).toBe('failing');
  });
});
