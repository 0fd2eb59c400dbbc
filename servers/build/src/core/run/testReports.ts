// The JUnit XML reports a run wrote (Gradle's build/test-results, Surefire's and Failsafe's target/*-reports):
// where they are, for test-reports to read, with their counts and each failing test at its source line.
import path from 'node:path';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import type { SaxesParser } from 'saxes';
import type { BuildProblem } from './runResult.js';

export interface TestReportDir {
  /** Relative to the build root. */
  dir: string;
  files: number;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

export interface TestReports {
  dirs: TestReportDir[];
  /** Failing tests, at the line of the test method's frame in the stack when it is in the module's sources. */
  failures: BuildProblem[];
}

const MAX_DIRECTORIES = 20_000;
const MAX_REPORT_FILES = 2_000;
const MAX_REPORT_BYTES = 16 * 1024 * 1024;
const MAX_FAILURES = 100;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.gradle', '.idea', 'src', '.mvn']);
const TEST_SOURCE_DIRS = [
  'src/test/java',
  'src/test/kotlin',
  'src/test/groovy',
  'src/test/scala',
  'src/it/java',
];

/** The report folders under `root` holding XML files changed since `sinceMs`. */
export async function testReportsWritten(
  root: ConfinedDirectory,
  sinceMs: number,
  signal?: AbortSignal,
): Promise<TestReports> {
  const found: TestReports = { dirs: [], failures: [] };
  const queue: string[] = ['.'];
  let visited = 0;
  let files = 0;
  while (queue.length > 0 && visited < MAX_DIRECTORIES && files < MAX_REPORT_FILES) {
    if (signal?.aborted) break;
    const relative = queue.shift() as string;
    visited += 1;
    const dir = relative === '.' ? root : await root.openDirectory(relative).catch(() => undefined);
    if (dir === undefined) continue;
    try {
      for (const entry of dir.listEntries({ maxEntries: 10_000 })) {
        if (entry.kind !== 'directory' || SKIPPED_DIRS.has(entry.name)) continue;
        const child = relative === '.' ? entry.name : `${relative}/${entry.name}`;
        const reportKind = reportDirKind(child);
        if (reportKind === 'results') {
          // build/test-results/<task>/TEST-*.xml
          const tasks = await root.openDirectory(child);
          const names = tasks.listEntries({ maxEntries: 1_000 }).filter((task) => task.kind === 'directory');
          await tasks.close();
          for (const task of names)
            files += await readReportDir(root, `${child}/${task.name}`, 3, sinceMs, found);
        } else if (reportKind === 'surefire') files += await readReportDir(root, child, 2, sinceMs, found);
        else queue.push(child);
      }
    } finally {
      if (dir !== root) await dir.close();
    }
  }
  return found;
}

function reportDirKind(relative: string): 'results' | 'surefire' | undefined {
  const parts = relative.split('/');
  const [parent, name] = [parts.at(-2), parts.at(-1)];
  if (parent === 'build' && name === 'test-results') return 'results';
  if (parent === 'target' && (name === 'surefire-reports' || name === 'failsafe-reports')) return 'surefire';
  return undefined;
}

async function readReportDir(
  root: ConfinedDirectory,
  relative: string,
  depthBelowModule: number,
  sinceMs: number,
  found: TestReports,
): Promise<number> {
  await using dir = await root.openDirectory(relative);
  const names = dir
    .listEntries({ maxEntries: MAX_REPORT_FILES })
    .filter((entry) => entry.kind === 'regular file' && /^TEST-.*\.xml$/.test(entry.name))
    .map((entry) => entry.name);
  const stats = dir.statEntries(names);
  const fresh = names.filter((_, index) => (stats[index]?.mtimeMs ?? 0) >= sinceMs - 1_000);
  if (fresh.length === 0) return 0;
  const counts: TestReportDir = {
    dir: relative,
    files: fresh.length,
    tests: 0,
    failures: 0,
    errors: 0,
    skipped: 0,
  };
  const moduleDir = relative.split('/').slice(0, -depthBelowModule).join('/');
  for (const name of fresh) {
    await using file = await dir.openFile(name);
    const xml = await file.readText({ maxBytes: MAX_REPORT_BYTES });
    // saxes loads when a report is read, not at every start of the server.
    const { SaxesParser } = await import('saxes');
    for (const failure of readJUnit(new SaxesParser(), xml, counts)) {
      if (found.failures.length >= MAX_FAILURES) break;
      found.failures.push(await located(root, moduleDir, failure));
    }
  }
  found.dirs.push(counts);
  return fresh.length;
}

interface FailedTest {
  classname: string;
  name: string;
  message: string;
  stack: string;
}

/** Adds the report's <testsuite> counts to `counts`; returns its failing test cases. */
function readJUnit(parser: SaxesParser, xml: string, counts: TestReportDir): FailedTest[] {
  const failed: FailedTest[] = [];
  let testcase: { classname: string; name: string } | undefined;
  let failure: FailedTest | undefined;
  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Record<string, string>;
    if (tag.name === 'testsuite') {
      counts.tests += Number(attributes.tests ?? 0) || 0;
      counts.failures += Number(attributes.failures ?? 0) || 0;
      counts.errors += Number(attributes.errors ?? 0) || 0;
      counts.skipped += Number(attributes.skipped ?? 0) || 0;
    } else if (tag.name === 'testcase') {
      testcase = { classname: attributes.classname ?? '', name: attributes.name ?? '' };
    } else if (
      (tag.name === 'failure' || tag.name === 'error') &&
      testcase !== undefined &&
      failure === undefined
    ) {
      failure = { ...testcase, message: attributes.message ?? attributes.type ?? tag.name, stack: '' };
    }
  });
  parser.on('text', (text) => {
    if (failure !== undefined && failure.stack.length < 20_000) failure.stack += text;
  });
  parser.on('cdata', (text) => {
    if (failure !== undefined && failure.stack.length < 20_000) failure.stack += text;
  });
  parser.on('closetag', (tag) => {
    if ((tag.name === 'failure' || tag.name === 'error') && failure !== undefined) {
      failed.push(failure);
      failure = undefined;
      testcase = undefined;
    }
    if (tag.name === 'testcase') testcase = undefined;
  });
  try {
    parser.write(xml).close();
  } catch {
    // A report cut short (a killed build): what was read counts.
  }
  return failed;
}

/** The test's source file and line, from the frame `at <class>.<method>(<File>:<line>)` of its stack. */
async function located(root: ConfinedDirectory, moduleDir: string, test: FailedTest): Promise<BuildProblem> {
  const problem: BuildProblem = {
    kind: 'test',
    message: `${test.classname} > ${test.name}: ${test.message}`.slice(0, 2_000),
  };
  const escaped = test.classname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const frame = new RegExp(`at ${escaped}\\.[\\w$]+\\(([\\w$-]+\\.\\w+):(\\d+)\\)`).exec(test.stack);
  if (frame === null) return problem;
  const packageDir = test.classname.split('.').slice(0, -1).join('/');
  for (const sources of TEST_SOURCE_DIRS) {
    const candidate = path.posix.join(moduleDir || '.', sources, packageDir, frame[1] as string);
    const stat = await root.openFile(candidate).then(
      async (file) => {
        await file.close();
        return true;
      },
      () => false,
    );
    if (stat) return { ...problem, file: candidate, line: Number(frame[2]) };
  }
  return { ...problem, line: Number(frame[2]) };
}
