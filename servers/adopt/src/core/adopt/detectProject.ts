// What a repository is built with and how: read from its build files, so the generated AGENTS.md names
// commands that actually work here.
import { DomainError } from '@groundwork/mcp-common/domainError';
import type { CheckoutFiles } from '../files/checkoutFiles.js';

export type BuildTool =
  | 'npm'
  | 'pnpm'
  | 'yarn'
  | 'bun'
  | 'maven'
  | 'gradle'
  | 'cargo'
  | 'go'
  | 'python'
  | 'make'
  | 'none';

export interface ProjectProfile {
  languages: string[];
  buildTool: BuildTool;
  buildCommand?: string;
  testCommand?: string;
  lintCommand?: string;
  /** Top-level folders worth naming, with what they usually hold. */
  layout: Array<{ path: string; purpose: string }>;
  /** Tooling found (formatter, linter, CI) that implies conventions. */
  conventions: string[];
  /** For Node projects, the package.json scripts. */
  scripts?: Record<string, string>;
}

const PURPOSES: Record<string, string> = {
  src: 'source code',
  lib: 'library code',
  app: 'application code',
  apps: 'applications',
  packages: 'workspace packages',
  servers: 'servers',
  cmd: 'command entry points',
  internal: 'internal packages',
  test: 'tests',
  tests: 'tests',
  spec: 'tests',
  docs: 'documentation',
  scripts: 'build and maintenance scripts',
  examples: 'examples',
  config: 'configuration',
  '.github': 'CI workflows and GitHub settings',
  '.claude': 'Claude Code settings, skills, agents and commands',
};
const SKIPPED = new Set([
  'node_modules',
  'dist',
  'build',
  'target',
  'out',
  'coverage',
  '.git',
  '.gradle',
  '.idea',
  '.vscode',
]);

const CONVENTION_FILES: ReadonlyArray<[RegExp, string]> = [
  [/^\.editorconfig$/, 'Formatting follows .editorconfig.'],
  [/^biome\.jsonc?$/, 'Biome formats and lints the code (`biome check`).'],
  [/^\.prettierrc/, 'Prettier formats the code.'],
  [/^(\.eslintrc|eslint\.config\.)/, 'ESLint lints the code.'],
  [/^tsconfig\.json$/, 'TypeScript; keep the compiler settings strict.'],
  [/^checkstyle\.xml$/, 'Checkstyle enforces the Java style.'],
  [/^\.golangci\.ya?ml$/, 'golangci-lint lints the Go code.'],
  [/^rustfmt\.toml$/, 'rustfmt formats the Rust code.'],
  [/^\.pre-commit-config\.yaml$/, 'pre-commit hooks run before each commit.'],
  [/^CONTRIBUTING\.md$/, 'See CONTRIBUTING.md for contribution rules.'],
];

/** Reads the checkout through `files`, so a hostile build file can only lead to a refusal, never outside. */
export async function detectProject(files: CheckoutFiles): Promise<ProjectProfile> {
  const entries = await files.list('');
  const names = new Set(entries.map((entry) => entry.name));
  const profile: ProjectProfile = { languages: [], buildTool: 'none', layout: [], conventions: [] };
  for (const entry of entries) {
    if (entry.kind !== 'directory' || SKIPPED.has(entry.name)) continue;
    if (entry.name.startsWith('.') && PURPOSES[entry.name] === undefined) continue;
    profile.layout.push({ path: `${entry.name}/`, purpose: PURPOSES[entry.name] ?? 'project files' });
  }
  profile.layout.sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const entry of entries) {
    for (const [pattern, convention] of CONVENTION_FILES)
      if (pattern.test(entry.name)) profile.conventions.push(convention);
  }
  if (names.has('.github')) {
    const workflows = await files.list('.github/workflows').catch(() => []);
    if (workflows.length > 0)
      profile.conventions.push('CI runs the workflows in .github/workflows on every pull request.');
  }
  if (names.has('package.json')) await detectNode(files, names, profile);
  else if (names.has('pom.xml')) detectMaven(names, profile);
  else if ([...names].some((name) => /^(build|settings)\.gradle(\.kts)?$/.test(name)))
    await detectGradle(files, names, profile);
  else if (names.has('Cargo.toml'))
    Object.assign(profile, {
      languages: ['Rust'],
      buildTool: 'cargo',
      buildCommand: 'cargo build',
      testCommand: 'cargo test',
      lintCommand: 'cargo clippy',
    });
  else if (names.has('go.mod'))
    Object.assign(profile, {
      languages: ['Go'],
      buildTool: 'go',
      buildCommand: 'go build ./...',
      testCommand: 'go test ./...',
      lintCommand: 'go vet ./...',
    });
  else if (names.has('pyproject.toml') || names.has('requirements.txt') || names.has('setup.py'))
    Object.assign(profile, { languages: ['Python'], buildTool: 'python', testCommand: 'python -m pytest' });
  else if (names.has('Makefile'))
    Object.assign(profile, { buildTool: 'make', buildCommand: 'make', testCommand: 'make test' });
  if (profile.languages.length === 0) profile.languages.push('unknown');
  return profile;
}

async function detectNode(
  files: CheckoutFiles,
  names: ReadonlySet<string>,
  profile: ProjectProfile,
): Promise<void> {
  const manager: BuildTool = names.has('pnpm-lock.yaml')
    ? 'pnpm'
    : names.has('yarn.lock')
      ? 'yarn'
      : names.has('bun.lockb') || names.has('bun.lock')
        ? 'bun'
        : 'npm';
  const pkg = parseJsonObject('package.json', await files.read('package.json')) as {
    scripts?: Record<string, string>;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const scripts = pkg.scripts ?? {};
  const typescript =
    names.has('tsconfig.json') ||
    pkg.devDependencies?.typescript !== undefined ||
    pkg.dependencies?.typescript !== undefined;
  const run = (script: string) => (manager === 'npm' ? `npm run ${script}` : `${manager} run ${script}`);
  profile.languages.push(typescript ? 'TypeScript' : 'JavaScript');
  profile.buildTool = manager;
  profile.scripts = scripts;
  if (scripts.build !== undefined) profile.buildCommand = run('build');
  if (scripts.test !== undefined) profile.testCommand = manager === 'npm' ? 'npm test' : `${manager} test`;
  if (scripts.lint !== undefined) profile.lintCommand = run('lint');
}

function detectMaven(names: ReadonlySet<string>, profile: ProjectProfile): void {
  const mvn = names.has('mvnw') ? './mvnw' : 'mvn';
  profile.languages.push('Java');
  profile.buildTool = 'maven';
  profile.buildCommand = `${mvn} -B verify`;
  profile.testCommand = `${mvn} -B test`;
}

async function detectGradle(
  files: CheckoutFiles,
  names: ReadonlySet<string>,
  profile: ProjectProfile,
): Promise<void> {
  const gradle = names.has('gradlew') ? './gradlew' : 'gradle';
  const kotlin = (await files.kind('src/main/kotlin').catch(() => undefined)) === 'directory';
  profile.languages.push(kotlin ? 'Kotlin' : 'Java');
  profile.buildTool = 'gradle';
  profile.buildCommand = `${gradle} build`;
  profile.testCommand = `${gradle} test`;
  profile.lintCommand = `${gradle} check`;
}

export class InvalidBuildFileError extends DomainError {
  constructor(file: string, problem: string) {
    super(
      'INVALID_BUILD_FILE',
      `'${file}' ${problem}; fix it on the default branch, then run adopt_repo again.`,
    );
  }
}

/** A JSON object from a repository file (anything else is a clear error, never a raw parser message). */
export function parseJsonObject(file: string, text: string | undefined): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text ?? '');
  } catch {
    throw new InvalidBuildFileError(file, 'is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new InvalidBuildFileError(file, 'is not a JSON object');
  return parsed as Record<string, unknown>;
}
