// Which files are tests, which runner runs each, and the command that runs exactly a set of them. The rules
// follow each runner's own defaults (MCP_USAGE.md, "Which files are tests"); `test_globs` replaces them.
import ignore from 'ignore';
import type { FileSource } from '../fileSource.js';
import { dirnameOf, joinRelative } from '../languages/resolvedImport.js';
import type { FileFacts } from '../languages/sourceFacts.js';

export const RUNNERS = ['vitest', 'jest', 'node', 'pytest', 'go', 'maven', 'gradle'] as const;
export type Runner = (typeof RUNNERS)[number];

export interface TestGroup {
  runner: Runner;
  /** The folder to run `command` in, relative to the project root ('.' for the root). */
  cwd: string;
  /** Runs exactly `files` (relative to the project root). */
  command: string;
  files: string[];
}

const JS = /\.[cm]?[jt]sx?$/;
/** vitest's default `include` and jest's default `testMatch` (`__tests__`, `.test.`/`.spec.`). */
const VITEST_TEST = /(^|\/)[^/]+\.(test|spec)\.[cm]?[jt]sx?$/;
const JEST_TEST = /((^|\/)__tests__\/.+|(^|\/)[^/]+[.-](test|spec))\.[cm]?[jt]sx?$/;
/** `node --test`'s default patterns. */
const NODE_TEST = /((^|\/)test\/.+|(^|\/)test|(^|\/)test-[^/]+|(^|\/)[^/]+[.\-_]test)\.[cm]?[jt]sx?$/;
const PYTHON_TEST = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/;
const GO_TEST = /_test\.go$/;
const JVM_TEST = /((^|\/)src\/test\/.+|(^|\/)[^/]*(Test|Tests|Spec|IT|Suite))\.(java|kt|kts|scala)$/;

interface PackageInfo {
  runner?: 'vitest' | 'jest' | 'node';
}

/** Decides tests and their runners for one project; package.json files are read once each. */
export class TestRules {
  private readonly packages = new Map<string, Promise<PackageInfo | undefined>>();
  private readonly folderRunners = new Map<string, Promise<'vitest' | 'jest' | 'node' | undefined>>();
  private readonly globs: ReturnType<typeof ignore> | undefined;

  constructor(
    private readonly files: ReadonlySet<string>,
    private readonly facts: (file: string) => FileFacts | undefined,
    private readonly source: FileSource,
    testGlobs?: readonly string[],
  ) {
    this.globs = testGlobs === undefined || testGlobs.length === 0 ? undefined : ignore().add([...testGlobs]);
  }

  /**
   * Whether `file`'s name can be a test's at all, told without reading anything: a change reaches thousands
   * of files, and most are let go here, before their folders' runners are looked up.
   */
  mayBeTest(file: string): boolean {
    if (this.globs !== undefined) return this.globs.ignores(file);
    if (JS.test(file)) return VITEST_TEST.test(file) || JEST_TEST.test(file) || NODE_TEST.test(file);
    return PYTHON_TEST.test(file) || GO_TEST.test(file) || JVM_TEST.test(file);
  }

  /** The runner of `file` when it is a test file, else undefined. */
  async runnerOf(file: string): Promise<Runner | undefined> {
    if (!this.mayBeTest(file)) return undefined;
    const forced = this.globs !== undefined;
    if (JS.test(file)) {
      const runner = (await this.jsRunner(file)) ?? 'node';
      const pattern = runner === 'vitest' ? VITEST_TEST : runner === 'jest' ? JEST_TEST : NODE_TEST;
      return forced || pattern.test(file) ? runner : undefined;
    }
    if (file.endsWith('.py')) return forced || PYTHON_TEST.test(file) ? 'pytest' : undefined;
    if (file.endsWith('.go')) return forced || GO_TEST.test(file) ? 'go' : undefined;
    if (/\.(java|kt|kts|scala)$/.test(file)) {
      if (!forced && !JVM_TEST.test(file)) return undefined;
      return this.nearest(file, ['pom.xml']) !== undefined ? 'maven' : 'gradle';
    }
    return undefined;
  }

  /** Test files grouped by runner and the folder their command runs in, with the commands. */
  async groups(tests: ReadonlyArray<{ path: string; runner: Runner }>): Promise<TestGroup[]> {
    const grouped = new Map<string, TestGroup>();
    for (const test of tests) {
      const cwd = this.cwdOf(test.path, test.runner);
      const key = `${test.runner}\0${cwd}`;
      const group = grouped.get(key) ?? { runner: test.runner, cwd, command: '', files: [] };
      group.files.push(test.path);
      grouped.set(key, group);
    }
    for (const group of grouped.values()) group.command = this.commandOf(group);
    return [...grouped.values()].sort(
      (a, b) => a.runner.localeCompare(b.runner) || a.cwd.localeCompare(b.cwd),
    );
  }

  private cwdOf(file: string, runner: Runner): string {
    const markers: Record<Runner, string[]> = {
      vitest: ['package.json'],
      jest: ['package.json'],
      node: ['package.json'],
      pytest: ['pyproject.toml', 'pytest.ini', 'setup.cfg', 'tox.ini', 'setup.py'],
      go: ['go.mod'],
      maven: ['pom.xml'],
      gradle: ['settings.gradle', 'settings.gradle.kts', 'build.gradle', 'build.gradle.kts'],
    };
    return this.nearest(file, markers[runner]) ?? '.';
  }

  private commandOf(group: TestGroup): string {
    const local = group.files.map((file) => relativeTo(group.cwd, file));
    switch (group.runner) {
      case 'vitest':
        return `npx vitest run ${quoteAll(local)}`;
      case 'jest':
        return `npx jest ${quoteAll(local)}`;
      case 'node':
        return `node --test ${quoteAll(local)}`;
      case 'pytest':
        return `pytest ${quoteAll(local)}`;
      case 'go': {
        const packages = [...new Set(local.map((file) => `./${dirnameOf(file)}`.replace(/\/$/, '')))].sort();
        return `go test ${quoteAll(packages.map((name) => (name === '.' || name === './' ? '.' : name)))}`;
      }
      case 'maven':
        return `mvn test -Dtest=${quote([...new Set(group.files.map(classNameOf))].join(','))} -Dsurefire.failIfNoSpecifiedTests=false`;
      case 'gradle': {
        // The wrapper sits at the build's root, above a subproject's folder: `../gradlew` from `app` runs
        // that subproject's `test` with the build's own Gradle.
        const folder = group.cwd === '.' ? '' : group.cwd;
        const wrapper = this.nearest(joinRelative(folder, 'build.gradle'), ['gradlew']);
        const up = wrapper === undefined ? 0 : depthOf(folder) - depthOf(wrapper === '.' ? '' : wrapper);
        const gradle =
          wrapper === undefined ? 'gradle' : up === 0 ? './gradlew' : `${'../'.repeat(up)}gradlew`;
        const names = [...new Set(group.files.map((file) => this.qualifiedClassOf(file)))];
        return `${gradle} test ${names.map((name) => `--tests ${quote(name)}`).join(' ')}`;
      }
    }
  }

  private qualifiedClassOf(file: string): string {
    const packageName = this.facts(file)?.packageName;
    const name = classNameOf(file);
    return packageName === undefined || packageName === '' ? name : `${packageName}.${name}`;
  }

  /** The nearest folder at or above `file`'s that holds one of `names` ('.' for the root). */
  private nearest(file: string, names: readonly string[]): string | undefined {
    for (let folder = dirnameOf(file); ; folder = dirnameOf(folder)) {
      if (names.some((name) => this.files.has(joinRelative(folder, name))))
        return folder === '' ? '.' : folder;
      if (folder === '') return undefined;
    }
  }

  /** The runner the nearest package.json that names one (a dependency or the test script) declares. */
  private jsRunner(file: string): Promise<'vitest' | 'jest' | 'node' | undefined> {
    // Decided once per folder: a change reaches thousands of files in a few folders.
    const start = dirnameOf(file);
    let runner = this.folderRunners.get(start);
    if (runner === undefined) {
      runner = this.folderRunner(start);
      this.folderRunners.set(start, runner);
    }
    return runner;
  }

  private async folderRunner(start: string): Promise<'vitest' | 'jest' | 'node' | undefined> {
    for (let folder = start; ; folder = dirnameOf(folder)) {
      const manifest = joinRelative(folder, 'package.json');
      if (this.files.has(manifest)) {
        const info = await this.packageInfo(manifest);
        if (info?.runner !== undefined) return info.runner;
      }
      for (const [config, runner] of [
        ['vitest.config', 'vitest'],
        ['jest.config', 'jest'],
      ] as const) {
        for (const extension of ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json']) {
          if (this.files.has(joinRelative(folder, `${config}${extension}`))) return runner;
        }
      }
      if (folder === '') return undefined;
    }
  }

  private packageInfo(manifest: string): Promise<PackageInfo | undefined> {
    let info = this.packages.get(manifest);
    if (info === undefined) {
      info = this.source.read(manifest, 1024 * 1024).then((bytes) => parsePackage(bytes?.toString('utf8')));
      this.packages.set(manifest, info);
    }
    return info;
  }
}

function parsePackage(text: string | undefined): PackageInfo | undefined {
  if (text === undefined) return undefined;
  try {
    const json = JSON.parse(text) as {
      dependencies?: Record<string, unknown>;
      devDependencies?: Record<string, unknown>;
      scripts?: Record<string, unknown>;
    };
    const dependencies = { ...json.dependencies, ...json.devDependencies };
    const script = typeof json.scripts?.test === 'string' ? json.scripts.test : '';
    if ('vitest' in dependencies || /\bvitest\b/.test(script)) return { runner: 'vitest' };
    if ('jest' in dependencies || /\bjest\b/.test(script)) return { runner: 'jest' };
    if (/\bnode\b.*--test\b/.test(script)) return { runner: 'node' };
    return {};
  } catch {
    return undefined;
  }
}

function classNameOf(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return base.slice(0, base.indexOf('.') < 0 ? base.length : base.indexOf('.'));
}

/** How many folders deep `folder` ('' for the root) is. */
function depthOf(folder: string): number {
  return folder === '' ? 0 : folder.split('/').length;
}

function relativeTo(folder: string, file: string): string {
  return folder === '.' ? file : file.slice(folder.length + 1);
}

/** A shell word: plain names stay as they are, anything else is single-quoted. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function quoteAll(words: readonly string[]): string {
  return words.map(quote).join(' ');
}
