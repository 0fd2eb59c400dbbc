// Go (Debian's golang-go) with `go test -json`, and gotestsum (JUnit and its JSON file, with --rerun-fails).
// The oracle is the text go printed (test2json wraps it in Output events, or leaves it plain): its
// `--- PASS/FAIL/SKIP` lines, `FAIL pkg [build failed]`, panics and the -timeout panic.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectChanges } from './runChanges.js';
import {
  available,
  type Counts,
  expectJUnitReadAlike,
  expectSummary,
  failureNamed,
  failuresOf,
  type Ran,
  run,
  runInBackground,
  type Server,
  scratch,
  startServer,
  writeProject,
} from './runnerHarness.js';

const present = available('go', ['version']);
const gotestsum = available('gotestsum');

function projectFiles(version: 1 | 2): Record<string, string> {
  return {
    'go.mod': 'module example.com/demo\n\ngo 1.19\n',
    'calc/calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n',
    'calc/calc_test.go': `package calc

import "testing"

func TestPasses(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Fatal("no")
	}
}

func TestLogsThenFails(t *testing.T) {
	t.Log("context first")
	t.Errorf("Add(2, 2) = %d, want %d", Add(2, 2), 5)
}

func TestLogsThenFatal(t *testing.T) {
	t.Logf("computing Add(%d, %d)", 2, 2)
	if got := Add(2, 2); got != 5 {
		t.Fatalf("Add(2, 2) = %d, want 5", got)
	}
}

func TestFatal(t *testing.T) {
	t.Fatalf("caf\\u00e9 is \\x1b[31mnot\\x1b[0m ready")
}

func TestTable(t *testing.T) {
	for _, name := range []string{"one", "two", "\\u00e9t\\u00e9"} {
		t.Run(name, func(t *testing.T) {
			if name == "two" {
				t.Error("two is not allowed")
			}
		})
	}
}

func TestSkipped(t *testing.T) { t.Skip("later") }

func TestFixedLater(t *testing.T) {
	if Add(1, 1) != ${version === 1 ? 3 : 2} {
		t.Error("still wrong")
	}
}

func TestBrokenLater(t *testing.T) {
	if Add(2, 2) != ${version === 1 ? 4 : 5} {
		t.Error("broken by the change")
	}
}

func TestSkippedLater(t *testing.T) {
	${version === 1 ? 't.Error("fails before it is skipped")' : 't.Skip("quarantined")'}
}

func Test${version === 1 ? 'Removed' : 'Added'}Later(t *testing.T) {}
`,
    'panicky/panicky_test.go': `package panicky

import "testing"

func TestPanics(t *testing.T) {
	var m map[string]int
	m["x"] = 1
}
`,
    'broken/broken_test.go':
      'package broken\n\nimport "testing"\n\nfunc TestX(t *testing.T) { undefined() }\n',
    'hang/hang_test.go': `package hang

import (
	"testing"
	"time"
)

func TestQuick(t *testing.T) {}

func TestHangs(t *testing.T) { time.Sleep(time.Hour) }
`,
    'flaky/flaky_test.go': `package flaky

import (
	"os"
	"testing"
)

func TestFlaky(t *testing.T) {
	if _, err := os.Stat("ran-once"); err != nil {
		os.WriteFile("ran-once", nil, 0o644)
		t.Fatal("first attempt fails")
	}
}

func TestAlwaysFails(t *testing.T) { t.Fatal("every attempt fails") }

func TestOk(t *testing.T) {}
`,
  };
}

let root: string;
let server: Server;
const ran: Ran[] = [];
let rerun: Ran;
let goEnv: Record<string, string>;

beforeAll(async () => {
  if (!present) return;
  root = await scratch('go');
  goEnv = {
    GOCACHE: path.join(root, '.gocache'),
    GOPATH: path.join(root, '.gopath'),
    GOFLAGS: '-mod=mod',
    GOPROXY: 'off',
    GOTOOLCHAIN: 'local',
  };
  // The two versions live in folders of their own and run at once (go's build cache is shared safely);
  // a Go test's identity is its package and name, so the folders do not matter to compare_runs.
  const versions = await Promise.all(
    ([1, 2] as const).map(async (version) => {
      const project = `v${version}`;
      await writeProject(path.join(root, project), projectFiles(version));
      // A shell redirect, as CI jobs write it: stdout (events and Go ≤ 1.23's plain FAIL lines) and stderr.
      return runInBackground(
        'sh',
        [
          '-c',
          'mkdir -p reports && go test -json -timeout 10s ./calc/... ./panicky/... ./broken/... ./hang/... > reports/go-test.json 2>&1',
        ],
        path.join(root, project),
        goEnv,
      );
    }),
  );
  ran.push(...versions);
  if (gotestsum) {
    rerun = run(
      'gotestsum',
      [
        '--junitfile',
        '../gotestsum/junit.xml',
        '--jsonfile',
        '../gotestsum/go-test.json',
        '--rerun-fails=2',
        '--packages',
        './flaky/...',
      ],
      path.join(root, 'v1'),
      goEnv,
    );
  }
  server = await startServer(root);
}, 300_000);
afterAll(async () => {
  await server?.close();
  if (root !== undefined && !process.env.KEEP_RUNNER_DIRS) await rm(root, { recursive: true, force: true });
});

/**
 * What go printed, out of the event stream: each package's Output in order (packages run at once, so
 * their events interleave in the stream), then the plain lines between events.
 */
async function printedBy(reports: string): Promise<string> {
  const text = await readFile(path.join(root, reports, 'go-test.json'), 'utf8');
  const byPackage = new Map<string, string>();
  let plain = '';
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) {
      plain += `${line}\n`;
      continue;
    }
    const event = JSON.parse(line) as { Package?: string; Output?: string };
    const pkg = event.Package ?? '';
    byPackage.set(pkg, (byPackage.get(pkg) ?? '') + (event.Output ?? ''));
  }
  return [...byPackage.values(), plain].join('\n');
}

/**
 * go's own verdicts: `--- PASS|FAIL|SKIP: name` (a parent of subtests only sums them up), a panic after a
 * `--- FAIL` (an error, as is a package that did not build), and the test a -timeout panic interrupted.
 */
function goCounts(printed: string): Counts & { failedNames: string[] } {
  const verdicts = [...printed.matchAll(/^\s*--- (PASS|FAIL|SKIP): (\S+)/gm)].map((m) => ({
    verdict: m[1],
    name: m[2] ?? '',
  }));
  const leaves = verdicts.filter(({ name }) => !verdicts.some((other) => other.name.startsWith(`${name}/`)));
  const panicked = [...printed.matchAll(/^--- FAIL: (\S+).*\npanic: /gm)].map((m) => m[1]);
  const failed = leaves.filter(({ verdict, name }) => verdict === 'FAIL' && !panicked.includes(name));
  const errored =
    panicked.length +
    (printed.match(/^FAIL\s+\S+ \[build failed\]$/gm) ?? []).length +
    (printed.match(/^panic: test timed out/gm) ?? []).length;
  const passed = leaves.filter(({ verdict }) => verdict === 'PASS').length;
  const skipped = leaves.filter(({ verdict }) => verdict === 'SKIP').length;
  return {
    total: passed + failed.length + skipped + errored,
    passed,
    failed: failed.length,
    errored,
    skipped,
    failedNames: failed.map(({ name }) => name),
  };
}

describe.skipIf(!present)('go test -json, against what go printed', () => {
  it('counts what go counted, with the build failure, the panic and the timeout as errors', async () => {
    for (const version of [1, 2]) {
      expect((ran[version - 1] as Ran).code).not.toBe(0);
      const printed = await printedBy(`v${version}/reports`);
      const { failedNames: _, ...counts } = goCounts(printed);
      expect(counts.errored).toBe(3);
      await expectSummary(server, `v${version}/reports`, counts);
    }
  });

  it("takes each failure's message and location from what the test reported", async () => {
    const printed = await printedBy('v1/reports');
    const failures = await failuresOf(server, 'v1/reports');
    for (const name of goCounts(printed).failedNames) {
      // `    calc_test.go:13: Add(2, 2) = 4, want 5` under `=== RUN   name` is where and what go reported.
      const short = name.split('/').pop() ?? name;
      const block = new RegExp(
        `=== RUN\\s+${name.replace(/[/]/g, '\\/')}\\n((?:\\s+\\S+\\.go:\\d+: .*\\n)+)`,
      ).exec(printed);
      const reported = [...(block?.[1] ?? '').matchAll(/^\s+(\S+\.go):(\d+): (.*)$/gm)];
      const last = reported[reported.length - 1];
      expect(last, name).toBeDefined();
      const failure = failureNamed(failures, name);
      // The last thing the test reported is where it stopped; what it logged before stays in the stack.
      expect(failure.message, short).toBe(
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the colour a test printed is not its message
        (last?.[3] ?? '').replace(/\x1B\[[0-9;]*m/g, ''),
      );
      expect({ file: failure.file, line: failure.line }).toEqual({
        file: last?.[1],
        line: Number(last?.[2]),
      });
    }
    expect(failureNamed(failures, 'TestFatal').message).toBe('café is not ready');
    // A t.Logf before t.Fatalf: failure_context shows the Fatalf message and its line, not the log line.
    const block = printed.slice(printed.indexOf('=== RUN   TestLogsThenFatal'));
    const fatal = /^\s+(calc_test\.go):(\d+): (Add\(2, 2\) = 4, want 5)$/m.exec(block);
    const logged = /^\s+calc_test\.go:(\d+): computing Add\(2, 2\)$/m.exec(block);
    expect(fatal, 'go printed the Fatalf line').not.toBeNull();
    expect(logged, 'go printed the log line').not.toBeNull();
    const context = await server.call('failure_context', {
      path: 'v1/reports',
      id: failureNamed(failures, 'TestLogsThenFatal').id,
    });
    expect(context.message).toBe(fatal?.[3]);
    expect((context.sources as { file: string; line: number }[])[0]).toMatchObject({
      file: 'v1/calc/calc_test.go',
      line: Number(fatal?.[2]),
    });
    expect(failureNamed(failures, 'TestPanics')).toMatchObject({
      status: 'errored',
      message: 'panic: assignment to entry in nil map [recovered]',
    });
    expect(failureNamed(failures, 'TestHangs')).toMatchObject({
      status: 'errored',
      message: 'panic: test timed out after 10s',
    });
    expect(failureNamed(failures, '(package failed)').message).toMatch(
      /undefined: undefined|\[build failed\]/,
    );
  });

  it('sees the changes between the two runs', async () => {
    await expectChanges(server, 'v1/reports', 'v2/reports', {
      new_failures: ['TestBrokenLater'],
      fixed: ['TestFixedLater'],
      newly_skipped: ['TestSkippedLater'],
      new_tests: ['TestAddedLater'],
      removed_tests: ['TestRemovedLater'],
    });
  });
});

describe.skipIf(!present || !gotestsum)('gotestsum --rerun-fails, against what gotestsum printed', () => {
  it('reads the JUnit the runner wrote with the fast markup scanner, exactly as saxes reads it', async () => {
    expect(await expectJUnitReadAlike(root)).toBeGreaterThan(0);
  });

  it('folds reruns: a test that passed on rerun is a flaky pass, one that failed every attempt failed', async () => {
    // gotestsum counts attempts: 3 tests, then 2 reruns of the two failures, then 1 of the one still failing.
    expect(rerun.printed).toMatch(/DONE 3 runs, 6 tests, 4 failures/);
    for (const report of ['gotestsum/junit.xml', 'gotestsum/go-test.json']) {
      const summary = await expectSummary(server, report, {
        total: 3,
        passed: 2,
        failed: 1,
        errored: 0,
        skipped: 0,
      });
      expect(summary.flaky, report).toBe(1);
      const failures = await failuresOf(server, report);
      expect(failures.map((failure) => failure.name)).toEqual(['TestAlwaysFails']);
      expect(failures[0]?.message).toBe('every attempt fails');
    }
    const flaky = (await server.call('flaky_tests', { paths: ['gotestsum/junit.xml'] })).flaky as {
      name: string;
      attempts: number;
    }[];
    expect(flaky).toMatchObject([{ name: 'TestFlaky', attempts: 2 }]);
  });
});
