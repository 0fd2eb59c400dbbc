// What the static reading of a build produces: the build systems under a root, their modules and the edges
// between them, the tool versions and settings they pin, and each module's declared dependencies. Paths are
// relative to the root the client named, with `/` separators; lines are 1-based.

export type BuildSystemKind = 'gradle' | 'maven' | 'npm' | 'pnpm' | 'yarn' | 'go' | 'cargo';

export interface SourceLocation {
  file: string;
  line: number;
}

export interface BuildModule {
  system: BuildSystemKind;
  /**
   * The name the build tool itself uses: a Gradle project path (`:lib:core`), Maven `groupId:artifactId`,
   * an npm package name, a Go module path, a Cargo package name.
   */
  id: string;
  /** The folder holding the module, relative to the root (`.` for the root itself). */
  dir: string;
  /** The build file that declares the module (absent when it has none, as a Gradle project may). */
  file?: string | undefined;
  version?: string | undefined;
}

export type EdgeKind =
  /** Gradle `project(':x')`, a Cargo path dependency, an npm workspace package, a Go workspace module. */
  | 'dependency'
  /** Maven `<parent>`: the child inherits the parent's configuration. */
  | 'parent'
  /** Maven `<modules>` and Gradle `include`: the aggregator builds the module. */
  | 'aggregates';

export interface ModuleEdge {
  system: BuildSystemKind;
  from: string;
  to: string;
  kind: EdgeKind;
  /** Gradle configuration, Maven scope, npm/Cargo dependency table. */
  configuration?: string | undefined;
  at: SourceLocation;
}

export interface ToolPin {
  system: BuildSystemKind;
  tool:
    | 'gradle'
    | 'maven'
    | 'maven-wrapper'
    | 'npm'
    | 'pnpm'
    | 'yarn'
    | 'bun'
    | 'go'
    | 'go-toolchain'
    | 'rust';
  version: string;
  at: SourceLocation;
}

export interface BuildSetting {
  system: BuildSystemKind;
  key: string;
  value: string;
  at: SourceLocation;
}

export interface VersionCatalog {
  /** The accessor name (`libs` for gradle/libs.versions.toml). */
  name: string;
  file: string;
  versions: number;
  libraries: number;
  bundles: number;
  plugins: number;
}

/** Something read that could not be understood; the rest of the workspace is still answered. */
export interface BuildProblem {
  file: string;
  line?: number | undefined;
  code: string;
  message: string;
}

export type VersionSource =
  /** Written in the declaration itself. */
  | 'literal'
  /** A Gradle version catalog entry (`libs.x.y`), its version inline or a `version.ref`. */
  | 'catalog'
  /** A property: Maven `${x}`, Gradle `$x` from gradle.properties or `ext`. */
  | 'property'
  /** Maven `<dependencyManagement>` of the module or an ancestor. */
  | 'dependency-management'
  /** A BOM: Maven `import` scope, Gradle `platform(...)`. */
  | 'bom'
  /** Inherited from the parent POM's dependencies. */
  | 'parent'
  /** Cargo `workspace = true`, npm `workspace:` protocol, a Go workspace module. */
  | 'workspace'
  /** No version: a project dependency, a file dependency, or a version the build decides elsewhere. */
  | 'none';

export interface DeclaredVersion {
  /** The version spec as written or as found (`1.2.3`, `[1.0,2.0)`, `1.+`, `^4.17.0`), when known statically. */
  spec?: string | undefined;
  source: VersionSource;
  /** Where the version is defined, when that is not the declaration itself (the catalog line, the property). */
  definedAt?: SourceLocation | undefined;
  /** The catalog alias, property name or BOM the version comes from. */
  via?: string | undefined;
  /**
   * Why the version cannot be known without running the build tool (a BOM outside the repository, a property
   * set by a plugin, a computed expression). Absent when `spec` is exact.
   */
  unknown?: string | undefined;
}

export interface DeclaredDependency {
  system: BuildSystemKind;
  /** The declaring module's id. */
  module: string;
  /** Gradle configuration, Maven scope, npm field, Cargo table, Go `require`. */
  configuration: string;
  /** `group:name` (Gradle/Maven), package name (npm, Cargo), module path (Go); for a project, its id. */
  coordinates: string;
  kind: 'external' | 'project' | 'platform' | 'files';
  version: DeclaredVersion;
  at: SourceLocation;
}

/** A fact the health rules judge that is not a module, a dependency or a setting. */
export interface BuildFact {
  system: BuildSystemKind;
  kind:
    | 'repository'
    | 'eager-task-api'
    | 'cross-project-configuration'
    | 'maven-plugin'
    | 'maven-plugin-management'
    | 'wrapper';
  /** The repository (`jcenter`, `mavenLocal`), the API (`tasks.create`), the block, the plugin key. */
  name: string;
  /** The plugin's version when the fact is a plugin. */
  version?: string | undefined;
  module?: string | undefined;
  at: SourceLocation;
}

/** One build system found under the root: its root folder and what it declares. */
export interface BuildSystemModel {
  kind: BuildSystemKind;
  /** The folder of its settings file, reactor POM, workspace root, go.work or Cargo workspace. */
  root: string;
  /** The files it was read from. */
  files: string[];
  modules: BuildModule[];
  edges: ModuleEdge[];
  tools: ToolPin[];
  settings: BuildSetting[];
  catalogs: VersionCatalog[];
  dependencies: DeclaredDependency[];
  facts: BuildFact[];
  problems: BuildProblem[];
}

export interface Workspace {
  /** Changes whenever a build file or folder changes: ties page cursors to the reading they were cut from. */
  stamp: string;
  systems: BuildSystemModel[];
  /** Files that could not be read or parsed, across every system (and those no system claimed). */
  problems: BuildProblem[];
  /** Module cycles (each a list of ids, first repeated at the end), per system. */
  cycles: Array<{ system: BuildSystemKind; modules: string[] }>;
}
