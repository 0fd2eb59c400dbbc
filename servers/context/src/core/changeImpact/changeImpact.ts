// "I changed these lines — what can break, and which tests must I run?": the changed files, the exported
// declarations they touch, the files that import them (nearest first, through re-exports and barrels), the
// test files among those with the commands that run exactly them, and a bundle of the hunks and the
// signatures of the nearest dependents within a token budget.
import { DomainError } from '@groundwork/mcp-common/domainError';
import { countTokens } from '@groundwork/mcp-common/tokens';
import type { CodeState } from '../codeState.js';
import type { FileSource } from '../fileSource.js';
import { languageOf } from '../languages/fileLanguage.js';
import { dirnameOf } from '../languages/resolvedImport.js';
import type { IndexedProject, ProjectIndex } from '../projectIndex.js';
import { DEFAULT_MAX_FILE_BYTES } from '../projectScan.js';
import { WorkBudget, type WorkControl } from '../workBudget.js';
import { type ChangedDeclaration, changedDeclarations } from './changedDeclarations.js';
import { dependentSignature } from './dependentOutlines.js';
import { formerImporters } from './formerImporters.js';
import type { ChangedFile, ProjectInRepository, TreeChanges } from './gitChanges.js';
import { goTestsReaching } from './goTestBinaries.js';
import { pythonPackageLoaders } from './pythonPackageLoads.js';
import { type Runner, type TestGroup, TestRules } from './testSelection.js';

export interface ChangeImpactRequest {
  /** A git revision; without it (and without `files`) the merge-base with the default branch. */
  base?: string;
  /** The changed files, instead of asking git. */
  files?: readonly string[];
  /** Globs (gitignore syntax) that say which files are tests, replacing the runners' defaults. */
  testGlobs?: readonly string[];
  /** Tokens (o200k_base) the bundle of hunks and signatures may cost. */
  bundleTokens: number;
}

export interface ImpactedFile {
  path: string;
  /** Import hops from the nearest changed file. */
  distance: number;
}

export interface ImpactedTest extends ImpactedFile {
  runner: Runner;
  /** Why it is selected beyond imports (a Go test of the changed package, a changed conftest.py). */
  reason?: string;
}

export interface ChangeBundle {
  budget_tokens: number;
  tokens: number;
  hunks: Array<{ file: string; diff: string }>;
  signatures: Array<{ file: string; distance: number; outline: string }>;
  /** Hunks and signatures that did not fit the budget. */
  omitted: number;
}

export interface ChangeImpact {
  state: CodeState;
  base?: { revision: string; commit: string };
  changed_files: ChangedFile[];
  changed_declarations: ChangedDeclaration[];
  /** Every file that imports a changed one, directly or through others, nearest first. */
  dependents: ImpactedFile[];
  tests: ImpactedTest[];
  test_commands: TestGroup[];
  bundle: ChangeBundle;
  notes: string[];
}

/** Files that move how the project builds or resolves: a change to one can reach any test. */
const BUILD_CONFIG =
  /(^|\/)(package\.json|tsconfig[^/]*\.json|jsconfig[^/]*\.json|vitest\.config\.[cm]?[jt]s|jest\.config\.[^/]+|go\.mod|go\.sum|pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|pyproject\.toml|setup\.cfg|pytest\.ini|tox\.ini)$/;
/** Declarations compared per changed file at most (each reads the base version and parses both). */
const MAX_DECLARATION_FILES = 200;
/** Dependents whose signatures the bundle may offer. */
const MAX_SIGNATURE_FILES = 40;

export async function analyzeChangeImpact(
  index: ProjectIndex,
  project: IndexedProject,
  git: ProjectInRepository | undefined,
  state: CodeState,
  request: ChangeImpactRequest,
  control: WorkControl = {},
): Promise<ChangeImpact> {
  const { graph } = project;
  const signal = control.signal;
  const notes: string[] = [];
  let changed: ChangedFile[];
  let base: { revision: string; commit: string } | undefined;
  // The diff from the base: each tracked file's hunks and the blob it had there.
  let diff: TreeChanges = { changed: [], diffs: new Map(), baseBlobs: new Map() };
  if (request.files !== undefined) {
    changed = [...new Set(request.files.map(normalize))].sort().map((path) => ({
      path,
      status:
        graph.files.has(path) || project.scan.files.some((file) => file.path === path)
          ? 'modified'
          : 'deleted',
    }));
    if (git !== undefined && request.base !== undefined) {
      const resolved = await git.resolveBase(request.base, signal, state.commit);
      base = { revision: resolved.name, commit: resolved.commit };
      diff = await git.changes(
        resolved.commit,
        changed.map((file) => file.path),
        signal,
      );
    }
  } else if (git === undefined) {
    throw new DomainError(
      'NOT_A_GIT_REPOSITORY',
      `The project is not in a git repository git may read (${state.note ?? 'no repository'}); pass the changed files as 'files'.`,
    );
  } else {
    const resolved = await git.resolveBase(request.base, signal, state.commit);
    base = { revision: resolved.name, commit: resolved.commit };
    diff = await git.changes(resolved.commit, undefined, signal);
    changed = diff.changed;
  }
  const diffs = diff.diffs;

  // Exported declarations: compared with the base version where there is one.
  const budget = new WorkBudget(signal);
  const declarations: ChangedDeclaration[] = [];
  const source = project.source;
  const sourceFiles = changed.filter((file) => languageOf(file.path) !== undefined);
  if (sourceFiles.length > MAX_DECLARATION_FILES)
    notes.push(
      `Exported declarations compared for the first ${MAX_DECLARATION_FILES} of ${sourceFiles.length} changed source files.`,
    );
  const compared = sourceFiles.slice(0, MAX_DECLARATION_FILES);
  const inBase = (file: ChangedFile) => git !== undefined && base !== undefined && file.status !== 'added';
  const baseTexts =
    git !== undefined && base !== undefined
      ? await git.baseTexts(
          base.commit,
          compared.filter(inBase).map((file) => file.previous_path ?? file.path),
          diff.baseBlobs,
          signal,
        )
      : new Map<string, string>();
  for (const [done, file] of compared.entries()) {
    const language = languageOf(file.path)!;
    const after = file.status === 'deleted' ? undefined : await readText(source, file.path, signal);
    const basePath = file.previous_path ?? file.path;
    const before = inBase(file) ? baseTexts.get(basePath) : undefined;
    if (before === undefined && base === undefined && file.status !== 'deleted') {
      // No base to compare with (`files` alone): every export of the file is what can be observed.
      const exported = await changedDeclarations(file.path, language, undefined, after, undefined);
      declarations.push(...exported.map((entry) => ({ ...entry, change: 'modified' as const })));
    } else {
      declarations.push(
        ...(await changedDeclarations(file.path, language, before, after, diffs.get(file.path))),
      );
    }
    if (budget.due) {
      await budget.checkpoint();
      control.onProgress?.(done + 1, sourceFiles.length, 'changed files compared');
    }
  }
  if (base === undefined)
    notes.push(
      'No base revision: changed declarations are not computed, only the changed files’ dependents and tests.',
    );

  // Dependents, nearest first, through every import kind (re-exports and barrels included) and the package
  // `__init__.py` files Python runs on the way to a module.
  const starts = changed.map((file) => file.path).filter((file) => graph.files.has(file));
  const loaders = pythonPackageLoaders(graph);
  const dependents = graph.reach(starts, graph.files.size, 'dependents', loaders);
  // A deleted file is out of the graph: its former importers (their imports of it now resolve nowhere) are
  // its dependents at one hop, and theirs follow.
  const deleted = changed.filter((file) => file.status === 'deleted').map((file) => file.path);
  const importers = formerImporters(graph, deleted).filter((file) => !starts.includes(file));
  if (importers.length > 0) {
    const known = new Map(dependents.map((entry) => [entry.path, entry]));
    const further = [
      ...importers.map((path) => ({ path, distance: 0 })),
      ...graph.reach(importers, graph.files.size, 'dependents', loaders),
    ];
    for (const entry of further) {
      if (starts.includes(entry.path)) continue;
      const seen = known.get(entry.path);
      if (seen === undefined || entry.distance + 1 < seen.distance)
        known.set(entry.path, { path: entry.path, distance: entry.distance + 1 });
    }
    dependents.splice(
      0,
      dependents.length,
      ...[...known.values()].sort((a, b) => a.distance - b.distance || (a.path < b.path ? -1 : 1)),
    );
  }
  if (deleted.some((file) => languageOf(file) !== undefined))
    notes.push(
      'A deleted file’s dependents are the files whose imports of it no longer resolve (relative TS/JS, Python and Go imports); one imported through an alias (tsconfig paths, #imports) is not matched — project_tree `unresolved` lists such imports.',
    );

  // Tests: the changed files and their dependents that are tests, plus the edges imports do not show.
  const rules = new TestRules(
    new Set(project.scan.files.map((file) => file.path)),
    (file) => index.factsOf(file),
    source,
    request.testGlobs,
  );
  const tests = new Map<string, ImpactedTest>();
  const consider = async (path: string, distance: number, reason?: string) => {
    if (tests.has(path) || !graph.files.has(path)) return;
    const runner = await rules.runnerOf(path);
    if (runner !== undefined)
      tests.set(path, { path, distance, runner, ...(reason === undefined ? {} : { reason }) });
  };
  for (const path of starts) await consider(path, 0);
  // Told by name first, without an await: thousands of dependents, few of them tests.
  for (const entry of dependents) if (rules.mayBeTest(entry.path)) await consider(entry.path, entry.distance);
  // A Go test binary links whole packages: every test of a package that links a changed one.
  for (const test of goTestsReaching(
    graph,
    changed.map((file) => file.path),
  ))
    await consider(
      test.path,
      test.distance,
      test.distance === 1
        ? 'a test of the changed Go package'
        : 'its Go test binary links the changed package',
    );
  // pytest loads a conftest.py for every test below its folder: a changed conftest.py, or one that imports
  // the change, reaches them all.
  const reached = [...starts.map((path) => ({ path, distance: 0 })), ...dependents];
  for (const conftest of reached) {
    if (!/(^|\/)conftest\.py$/.test(conftest.path)) continue;
    const folder = dirnameOf(conftest.path);
    const reason =
      conftest.distance === 0
        ? 'below the changed conftest.py'
        : `below ${conftest.path}, which imports the change`;
    for (const other of graph.files.keys())
      if (other.endsWith('.py') && (folder === '' || other.startsWith(`${folder}/`)))
        await consider(other, conftest.distance + 1, reason);
  }
  const configs = changed.filter((file) => BUILD_CONFIG.test(file.path)).map((file) => file.path);
  if (configs.length > 0)
    notes.push(
      `Build or resolution config changed (${configs.slice(0, 5).join(', ')}): any test may be affected; consider the whole suite.`,
    );
  const testList = [...tests.values()].sort((a, b) => a.distance - b.distance || (a.path < b.path ? -1 : 1));
  const testCommands = await rules.groups(testList);

  const bundle = await bundleOf(
    index.root,
    project,
    changed,
    diffs,
    dependents,
    request.bundleTokens,
    signal,
  );
  return {
    state,
    ...(base === undefined ? {} : { base }),
    changed_files: changed,
    changed_declarations: declarations,
    tests: testList,
    test_commands: testCommands,
    dependents,
    bundle,
    notes,
  };
}

async function bundleOf(
  root: string,
  project: IndexedProject,
  changed: readonly ChangedFile[],
  diffs: ReadonlyMap<string, string>,
  dependents: readonly ImpactedFile[],
  budgetTokens: number,
  signal: AbortSignal | undefined,
): Promise<ChangeBundle> {
  const bundle: ChangeBundle = {
    budget_tokens: budgetTokens,
    tokens: 0,
    hunks: [],
    signatures: [],
    omitted: 0,
  };
  // Counted as the whole answer is (mcp-common's one tokenizer).
  let remaining = budgetTokens - (await countTokens(JSON.stringify(bundle)));
  /** Takes `entry` when its cost (`tokens`, counted here unless given) fits what is left. */
  const take = async (entry: object, tokens?: number): Promise<boolean> => {
    const cost = tokens ?? (await countTokens(JSON.stringify(entry))) + 1;
    if (cost > remaining) {
      bundle.omitted++;
      return false;
    }
    remaining -= cost;
    bundle.tokens += cost;
    return true;
  };
  for (const file of changed) {
    const diff = diffs.get(file.path);
    if (diff === undefined) continue;
    const entry = { file: file.path, diff };
    if (await take(entry)) bundle.hunks.push(entry);
  }
  for (const dependent of dependents.slice(0, MAX_SIGNATURE_FILES)) {
    const signature = await dependentSignature(
      root,
      project.scan,
      project.source,
      dependent.path,
      dependent.distance,
      signal,
    );
    if (signature !== undefined && (await take(signature.entry, signature.tokens)))
      bundle.signatures.push(signature.entry);
  }
  bundle.omitted += Math.max(0, dependents.length - MAX_SIGNATURE_FILES);
  return bundle;
}

async function readText(
  source: FileSource,
  file: string,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  return (await source.read(file, DEFAULT_MAX_FILE_BYTES, signal))?.toString('utf8');
}

function normalize(file: string): string {
  return file.replace(/^\.\//, '').replace(/\\/g, '/');
}
