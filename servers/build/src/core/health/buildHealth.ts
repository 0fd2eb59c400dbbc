// The static build health check: each rule of the catalog judged on what the readers found. Nothing runs.
import type { BuildSystemModel, DeclaredDependency, SourceLocation, Workspace } from '../workspace/model.js';
import { RULES, type RuleId, type Severity } from './ruleCatalog.js';

export interface HealthFinding {
  rule: RuleId;
  severity: Severity;
  system: BuildSystemModel['kind'];
  module?: string | undefined;
  file: string;
  line: number;
  message: string;
  rationale: string;
  docs: string;
}

/** The oldest Gradle major version still supported (Gradle supports the current and the previous major). */
export const OLDEST_SUPPORTED_GRADLE_MAJOR = 8;

export function checkBuildHealth(workspace: Workspace): HealthFinding[] {
  const findings: HealthFinding[] = [];
  const report = (
    rule: RuleId,
    system: BuildSystemModel,
    at: SourceLocation,
    message: string,
    module?: string,
  ) => {
    const info = RULES[rule];
    findings.push({
      rule,
      severity: info.severity,
      system: system.kind,
      module,
      file: at.file,
      line: at.line,
      message,
      rationale: info.rationale,
      docs: info.docs,
    });
  };
  for (const system of workspace.systems) {
    if (system.kind === 'gradle') checkGradle(system, report);
    if (system.kind === 'maven') checkMaven(system, report);
    checkVersions(system, report);
  }
  return findings.sort(
    (a, b) =>
      severityRank(a.severity) - severityRank(b.severity) ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line),
  );
}

type Report = (
  rule: RuleId,
  system: BuildSystemModel,
  at: SourceLocation,
  message: string,
  module?: string,
) => void;

function severityRank(severity: Severity): number {
  return severity === 'error' ? 0 : severity === 'warning' ? 1 : 2;
}

/** Where a finding about the build as a whole points: the settings file, else the root build file. */
function buildFileOf(system: BuildSystemModel): SourceLocation {
  // The outermost of each kind: a system's files are listed in reading order, not settings first.
  const outermost = (pattern: RegExp) =>
    system.files
      .filter((file) => pattern.test(file))
      .sort((a, b) => a.split('/').length - b.split('/').length)[0];
  const file =
    outermost(/(^|\/)settings\.gradle(\.kts)?$/) ??
    outermost(/(^|\/)(build\.gradle(\.kts)?|pom\.xml)$/) ??
    system.files[0] ??
    system.root;
  return { file, line: 1 };
}

function checkGradle(system: BuildSystemModel, report: Report): void {
  const setting = (...keys: string[]) => system.settings.find((entry) => keys.includes(entry.key));
  const properties = system.files.find(
    (file) => file === 'gradle.properties' || file === `${system.root}/gradle.properties`,
  );
  const where = (found: { at: SourceLocation } | undefined) =>
    found?.at ?? (properties === undefined ? buildFileOf(system) : { file: properties, line: 1 });
  const caching = setting('org.gradle.caching');
  if (caching?.value.trim() !== 'true')
    report(
      'gradle/build-cache-off',
      system,
      where(caching),
      'The build cache is off: set org.gradle.caching=true in gradle.properties.',
    );
  if (system.modules.length > 1) {
    const parallel = setting('org.gradle.parallel');
    if (parallel?.value.trim() !== 'true')
      report(
        'gradle/parallel-off',
        system,
        where(parallel),
        `${system.modules.length} projects are built one at a time: set org.gradle.parallel=true in gradle.properties.`,
      );
  }
  const configurationCache = setting(
    'org.gradle.configuration-cache',
    'org.gradle.unsafe.configuration-cache',
  );
  if (configurationCache?.value.trim() !== 'true') {
    report(
      'gradle/configuration-cache-off',
      system,
      where(configurationCache),
      'The configuration cache is off: set org.gradle.configuration-cache=true in gradle.properties (Gradle 8.1+).',
    );
  }
  const wrapper = system.tools.find((tool) => tool.tool === 'gradle');
  if (!system.facts.some((fact) => fact.kind === 'wrapper')) {
    report(
      'gradle/no-wrapper',
      system,
      buildFileOf(system),
      'No Gradle wrapper: run `gradle wrapper` and commit gradle/wrapper/.',
    );
  } else if (wrapper !== undefined) {
    const major = Number.parseInt(wrapper.version, 10);
    if (Number.isFinite(major) && major < OLDEST_SUPPORTED_GRADLE_MAJOR) {
      report(
        'gradle/old-wrapper',
        system,
        wrapper.at,
        `The wrapper pins Gradle ${wrapper.version}; upgrade with \`./gradlew wrapper --gradle-version <current>\`.`,
      );
    }
  }
  for (const fact of system.facts) {
    if (fact.kind === 'repository' && fact.name === 'jcenter')
      report(
        'repository/jcenter',
        system,
        fact.at,
        'jcenter() is declared: replace it with mavenCentral().',
        fact.module,
      );
    if (fact.kind === 'repository' && fact.name === 'mavenLocal')
      report(
        'repository/maven-local',
        system,
        fact.at,
        'mavenLocal() is declared: remove it, or limit it to one group with content { includeGroup(…) }.',
        fact.module,
      );
    if (fact.kind === 'eager-task-api')
      report(
        'gradle/eager-task-api',
        system,
        fact.at,
        `${fact.name} configures tasks eagerly: use tasks.register / tasks.named / configureEach.`,
        fact.module,
      );
    if (fact.kind === 'cross-project-configuration')
      report(
        'gradle/cross-project-configuration',
        system,
        fact.at,
        `${fact.name} { } configures other projects from ${fact.at.file}: move the shared logic into a convention plugin.`,
        fact.module,
      );
  }
}

function checkMaven(system: BuildSystemModel, report: Report): void {
  if (!system.facts.some((fact) => fact.kind === 'wrapper')) {
    report(
      'maven/no-wrapper',
      system,
      buildFileOf(system),
      'No Maven wrapper: run `mvn wrapper:wrapper` and commit .mvn/wrapper/.',
    );
  }
  for (const fact of system.facts) {
    if (fact.kind === 'maven-plugin' && fact.version === undefined) {
      report(
        'maven/unpinned-plugin',
        system,
        fact.at,
        `The plugin ${fact.name} has no version: add <version> here or in <pluginManagement>.`,
        fact.module,
      );
    }
  }
}

const DYNAMIC = /(^|[.:])\+$|^latest\.|^[[(].*[,)\]]$|^\d+(\.\d+)*\.\+$/;

function isJvm(system: BuildSystemModel): boolean {
  return system.kind === 'gradle' || system.kind === 'maven';
}

function checkVersions(system: BuildSystemModel, report: Report): void {
  if (!isJvm(system)) return;
  const byArtifact = new Map<string, DeclaredDependency[]>();
  for (const dependency of system.dependencies) {
    const spec = dependency.version.spec;
    if (dependency.kind === 'project' || dependency.kind === 'files' || spec === undefined) continue;
    const at = dependency.version.definedAt ?? dependency.at;
    if (DYNAMIC.test(spec))
      report(
        'dependency/dynamic-version',
        system,
        at,
        `${dependency.coordinates}:${spec} is a dynamic version: pin an exact one.`,
        dependency.module,
      );
    else if (spec.endsWith('-SNAPSHOT'))
      report(
        'dependency/snapshot-version',
        system,
        at,
        `${dependency.coordinates}:${spec} is a SNAPSHOT: depend on a release.`,
        dependency.module,
      );
    const list = byArtifact.get(dependency.coordinates) ?? [];
    list.push(dependency);
    byArtifact.set(dependency.coordinates, list);
  }
  for (const [coordinates, declarations] of byArtifact) {
    const versions = [...new Set(declarations.map((declaration) => declaration.version.spec as string))];
    if (versions.length < 2) continue;
    const modules = [...new Set(declarations.map((declaration) => declaration.module))];
    if (modules.length < 2) continue;
    const first = declarations[0] as DeclaredDependency;
    const where = declarations
      .map(
        (declaration) =>
          `${declaration.module} ${declaration.version.spec} (${declaration.at.file}:${declaration.at.line})`,
      )
      .join(', ');
    report(
      'dependency/version-mismatch',
      system,
      first.at,
      `${coordinates} is declared at ${versions.length} versions: ${where}. Declare it once (a version catalog, a platform or <dependencyManagement>).`,
      first.module,
    );
  }
}
