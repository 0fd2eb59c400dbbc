// pytest (Debian's python3-pytest, with pytest-rerunfailures) writes JUnit XML; the server must count what
// pytest printed and show pytest's own messages and locations.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectChanges } from './runChanges.js';
import {
  available,
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

const PYTEST = '/usr/bin/pytest-3';
const present = available(PYTEST);

/** Version 1 and 2 of the project differ by the changes compare_runs must see. */
function project(version: 1 | 2): Record<string, string> {
  const changed = {
    fixed: version === 1 ? 'assert add(1, 1) == 3, "still wrong"' : 'assert add(1, 1) == 2',
    broke: version === 1 ? 'assert add(2, 2) == 4' : 'assert add(2, 2) == 5, "broken by the change"',
    skippedLater: version === 1 ? '' : '@pytest.mark.skip(reason="quarantined")\n',
  };
  return {
    'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "-p no:cacheprovider"\n',
    'calc.py': 'def add(a, b):\n    return a + b\n',
    'test_calc.py': `import os
import pytest
from calc import add


def test_passes():
    assert add(2, 3) == 5


def test_fails():
    assert add(1, 1) == 3, "sum is wrong"


def test_errors_with_colour():
    raise RuntimeError("\\x1b[31mboom\\x1b[0m in caf\\u00e9")


@pytest.fixture
def broken_fixture():
    raise ValueError("fixture broke")


def test_fixture_errors(broken_fixture):
    pass


@pytest.mark.skip(reason="later")
def test_skipped():
    pass


@pytest.mark.xfail(reason="known bug")
def test_expected_failure():
    assert False


@pytest.mark.parametrize("value", [1, 2, "\\u00e9t\\u00e9"])
def test_parameterised(value):
    assert value != 2, "two is not allowed"


@pytest.mark.flaky(reruns=2)
def test_flaky():
    marker = os.path.join(os.path.dirname(__file__), "flaky-ran-v${version}")
    if not os.path.exists(marker):
        open(marker, "w").close()
        assert False, "first attempt fails"


def test_fixed_later():
    ${changed.fixed}


def test_broken_later():
    ${changed.broke}


${changed.skippedLater}def test_skipped_later():
    assert add(0, 0) == 1, "zero"
${version === 1 ? '\n\ndef test_removed_later():\n    pass\n' : '\n\ndef test_added_later():\n    pass\n'}`,
    // The same test name in a second module is a second test.
    'test_other.py': 'def test_passes():\n    assert True\n',
    // A module that cannot be imported: pytest reports a collection error (an error, never a pass).
    'test_broken.py': 'import does_not_exist\n\n\ndef test_never_runs():\n    pass\n',
  };
}

let root: string;
let server: Server;
const ran: Ran[] = [];

beforeAll(async () => {
  if (!present) return;
  root = await scratch('pytest');
  for (const version of [1, 2] as const) {
    await writeProject(root, project(version));
    ran.push(
      run(
        PYTEST,
        [`--junitxml=reports-v${version}/junit.xml`, '-rfE', '--tb=short', '--continue-on-collection-errors'],
        root,
      ),
    );
    // No traceback: the report's own file and line (xunit1 writes them) are all failure_context has.
    if (version === 1)
      run(
        PYTEST,
        [
          '--junitxml=reports-tb-no/junit.xml',
          '--tb=no',
          '-o',
          'junit_family=xunit1',
          '--continue-on-collection-errors',
        ],
        root,
      );
  }
  server = await startServer(root);
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** pytest's last line: `3 failed, 5 passed, 2 skipped, 1 xfailed, 1 error, 1 rerun in 0.09s`. */
function printedCounts(printed: string) {
  const summary =
    printed
      .trim()
      .split('\n')
      .filter((line) => / in [\d.]+s/.test(line))
      .pop() ?? '';
  const count = (word: string) => printedNumber(summary, new RegExp(`(\\d+) ${word}\\b`));
  const counts = {
    failed: count('failed'),
    passed: count('passed'),
    skipped: count('skipped') + count('xfailed'),
    errored: count('errors?'),
  };
  return { total: counts.failed + counts.passed + counts.skipped + counts.errored, ...counts };
}

/** pytest's short summary: `FAILED test_calc.py::test_fails - AssertionError: sum is wrong`. */
function printedFailures(printed: string): { name: string; message: string }[] {
  // A module that failed to import is named by its file alone: `ERROR test_broken.py`.
  return [...printed.matchAll(/^(?:FAILED|ERROR) (\w+)\.py(?:::(\S+))?(?: - (.*))?$/gm)].map((match) => ({
    name: match[2] ?? match[1] ?? '',
    message: match[3] ?? '',
  }));
}

describe.skipIf(!present)('pytest --junitxml, against what pytest printed', () => {
  it('reads the JUnit the runner wrote with the fast markup scanner, exactly as saxes reads it', async () => {
    expect(await expectJUnitReadAlike(root)).toBeGreaterThan(0);
  });

  it('counts what pytest counted, in both runs', async () => {
    for (const [index, version] of [1, 2].entries()) {
      const printed = ran[index] as Ran;
      expect(printed.code).toBe(1);
      const summary = await expectSummary(server, `reports-v${version}`, printedCounts(printed.printed));
      // pytest-rerunfailures keeps the rerun out of the JUnit report: it prints "1 rerun", the XML has one pass.
      expect(printed.printed).toMatch(/1 rerun/);
      expect(summary.flaky).toBe(0);
    }
  });

  it("shows pytest's own message and location for every failure", async () => {
    const printed = (ran[0] as Ran).printed;
    const expected = printedFailures(printed);
    const failures = await failuresOf(server, 'reports-v1');
    expect(failures.map((failure) => failure.name).sort()).toEqual(
      expected.map((failure) => failure.name).sort(),
    );
    for (const { name, message } of expected) {
      expect(failureNamed(failures, name).message).toContain(message.replace(/^failed on setup with /, ''));
    }
    expect(failureNamed(failures, 'test_errors_with_colour').message).toBe('RuntimeError: boom in café');
    // Where pytest said it failed (`test_calc.py:11: in test_fails` in its traceback) is the test source shown.
    const failing = failureNamed(failures, 'test_fails');
    const printedLine = Number(/^test_calc\.py:(\d+): in test_fails$/m.exec(printed)?.[1]);
    expect(printedLine).toBeGreaterThan(0);
    const context = await server.call('failure_context', { path: 'reports-v1', id: failing.id });
    const sources = context.sources as { role: string; file: string; line: number }[];
    expect(sources[0]).toMatchObject({ file: 'test_calc.py', line: printedLine });
  });

  it("shows the test line, not pytest's 0-based item line, when --tb=no leaves only the report's line", async () => {
    // The oracle: the line pytest printed under --tb=short for the same test (its assert), and its def above.
    const printed = (ran[0] as Ran).printed;
    const assertLine = Number(/^test_calc\.py:(\d+): in test_fails$/m.exec(printed)?.[1]);
    const source = project(1)['test_calc.py'] ?? '';
    const defLine = source.split('\n').indexOf('def test_fails():') + 1;
    expect(defLine).toBeGreaterThan(0);
    const failing = failureNamed(await failuresOf(server, 'reports-tb-no'), 'test_fails');
    const context = await server.call('failure_context', { path: 'reports-tb-no', id: failing.id });
    const sources = context.sources as { role: string; file: string; line: number }[];
    expect(sources[0]?.file).toBe('test_calc.py');
    expect([defLine, assertLine]).toContain(sources[0]?.line);
  });

  it('sees the changes between the two runs', async () => {
    await expectChanges(server, 'reports-v1', 'reports-v2', {
      new_failures: ['test_broken_later'],
      fixed: ['test_fixed_later'],
      newly_skipped: ['test_skipped_later'],
      new_tests: ['test_added_later'],
      removed_tests: ['test_removed_later'],
    });
  });
});
