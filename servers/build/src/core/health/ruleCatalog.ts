// Every build_health rule: its default severity, a one-line rationale and the documentation it follows.
// Severity follows consequence: `error` where the build is not reproducible or can silently take another
// artifact; `warning` where it is slower or fragile; `note` for advice.

export type Severity = 'error' | 'warning' | 'note';

export interface RuleInfo {
  severity: Severity;
  /** One line: why the rule exists (shown with every finding, and as SARIF `help`). */
  rationale: string;
  docs: string;
}

const GRADLE = 'https://docs.gradle.org/current/userguide';
const MAVEN = 'https://maven.apache.org';

export const RULES = {
  'gradle/build-cache-off': {
    severity: 'warning',
    rationale:
      'Without org.gradle.caching=true every clean build and CI run re-executes tasks whose outputs Gradle could take from the build cache.',
    docs: `${GRADLE}/build_cache.html#sec:build_cache_enable`,
  },
  'gradle/parallel-off': {
    severity: 'note',
    rationale:
      'Without org.gradle.parallel=true the projects of a multi-project build are built one at a time.',
    docs: `${GRADLE}/performance.html#parallel_execution`,
  },
  'gradle/configuration-cache-off': {
    severity: 'note',
    rationale:
      'Without the configuration cache Gradle configures every project on every build, even when nothing changed.',
    docs: `${GRADLE}/configuration_cache.html#config_cache:usage:enable`,
  },
  'gradle/no-wrapper': {
    severity: 'warning',
    rationale:
      'Without gradle/wrapper/gradle-wrapper.properties the build runs with whatever Gradle each machine has: builds differ between machines and CI.',
    docs: `${GRADLE}/gradle_wrapper.html`,
  },
  'gradle/old-wrapper': {
    severity: 'warning',
    rationale:
      'The wrapper pins a Gradle major version that no longer receives fixes (Gradle supports the current and the previous major).',
    docs: `${GRADLE}/feature_lifecycle.html#eol_support`,
  },
  'maven/no-wrapper': {
    severity: 'note',
    rationale:
      'Without .mvn/wrapper/maven-wrapper.properties the build runs with whatever Maven each machine has.',
    docs: `${MAVEN}/wrapper/`,
  },
  'dependency/dynamic-version': {
    severity: 'error',
    rationale:
      'A dynamic version (`+`, `latest.*`, a range) resolves to whatever is newest when the build runs: two builds of the same commit can differ.',
    docs: `${GRADLE}/dependency_versions.html#sec:dynamic_versions_and_changing_modules`,
  },
  'dependency/snapshot-version': {
    severity: 'warning',
    rationale:
      'A SNAPSHOT version changes under the same name: the build is not reproducible and may break without any change of its own.',
    docs: `${MAVEN}/guides/getting-started/index.html#what-is-a-snapshot-version`,
  },
  'dependency/version-mismatch': {
    severity: 'warning',
    rationale:
      'Modules of one build declare the same artifact at different versions: conflict resolution picks one (highest in Gradle, nearest in Maven), so some module runs with a version it did not ask for.',
    docs: `${GRADLE}/dependency_resolution.html#sec:version-conflict`,
  },
  'repository/jcenter': {
    severity: 'error',
    rationale:
      'JCenter is read-only since 2021 and may go away; builds that resolve from it get no new versions and can break.',
    docs: `${GRADLE}/declaring_repositories.html`,
  },
  'repository/maven-local': {
    severity: 'warning',
    rationale:
      "mavenLocal() makes the build depend on what happens to be in this machine's ~/.m2, which Gradle does not manage: builds differ between machines and its cache is bypassed.",
    docs: `${GRADLE}/declaring_repositories_basics.html#sec:case-for-maven-local`,
  },
  'maven/unpinned-plugin': {
    severity: 'warning',
    rationale:
      'A build plugin without a version (here or in <pluginManagement>) takes whatever version the running Maven defaults to: builds differ between Maven versions.',
    docs: `${MAVEN}/guides/mini/guide-configuring-plugins.html`,
  },
  'gradle/eager-task-api': {
    severity: 'warning',
    rationale:
      'tasks.create, getByName, all, whenTaskAdded, withType(…) { } and `task x` create or configure tasks eagerly, on every build, even when they will not run; register / named / configureEach do not.',
    docs: `${GRADLE}/task_configuration_avoidance.html`,
  },
  'gradle/cross-project-configuration': {
    severity: 'note',
    rationale:
      'allprojects { } and subprojects { } couple every project to the root script: no project can be configured alone (configuration on demand, isolated projects); convention plugins do the same job.',
    docs: `${GRADLE}/sharing_build_logic_between_subprojects.html`,
  },
} as const satisfies Record<string, RuleInfo>;

export type RuleId = keyof typeof RULES;

export function ruleIds(): RuleId[] {
  return Object.keys(RULES) as RuleId[];
}
