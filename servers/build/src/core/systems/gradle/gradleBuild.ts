// A Gradle build read statically: the settings file's projects (include, includeFlat, projectDir), each
// project's build script (Groovy or Kotlin DSL) with its declared dependencies, repositories and task API use,
// gradle.properties, the wrapper's pinned version and the version catalogs. Nothing is run.
import { getProperties } from 'properties-file';
import type { ScriptLanguage } from '../../grammars/treeSitter.js';
import { LineIndex } from '../../text/lineIndex.js';
import type {
  BuildModule,
  BuildSystemModel,
  DeclaredVersion,
  SourceLocation,
} from '../../workspace/model.js';
import { baseName, emptySystem, fileIn, joinPath, type ReadContext } from '../readContext.js';
import {
  type ParsedScript,
  parseScript,
  type ScriptCall,
  type ScriptStatement,
  type ScriptValue,
  walkAssignments,
  walkCalls,
} from './buildScript.js';
import { type Catalog, readCatalog } from './versionCatalog.js';

const SETTINGS_FILES = ['settings.gradle.kts', 'settings.gradle'];
const BUILD_FILES = ['build.gradle.kts', 'build.gradle'];

/** Calls inside `dependencies { }` that are not configurations. */
const NOT_CONFIGURATIONS = new Set([
  'constraints',
  'components',
  'modules',
  'attributesSchema',
  'artifactTypes',
]);

/**
 * Methods of the dependency a declaration's closure configures (`implementation(x) { exclude module: 'y' }`).
 * Any other call in that closure falls through to the `dependencies` block around it and declares a
 * dependency of the module (kafka's `implementation(libs.zookeeper) { implementation libs.dropwizardMetrics }`).
 */
const DEPENDENCY_METHODS = new Set([
  'exclude',
  'because',
  'version',
  'artifact',
  'capabilities',
  'attributes',
  'targetConfiguration',
  'transitive',
  'force',
  'changing',
  'strictly',
  'require',
  'prefer',
  'reject',
  'endorseStrictVersions',
  'doNotEndorseStrictVersions',
  'requireCapability',
  'requireCapabilities',
]);

/** `call` declares a dependency: in a `dependencies` block, or in a declaration's closure inside one. */
function declaresDependency(call: ScriptCall, blocks: readonly string[]): boolean {
  const at = blocks.lastIndexOf('dependencies');
  if (at === -1 || call.receiver !== undefined || NOT_CONFIGURATIONS.has(call.name)) return false;
  const inside = blocks.slice(at + 1);
  if (inside.length === 0) return true;
  return (
    !DEPENDENCY_METHODS.has(call.name) &&
    inside.every((block) => !NOT_CONFIGURATIONS.has(block) && !DEPENDENCY_METHODS.has(block))
  );
}

/** Task container calls that create or configure tasks eagerly (Gradle's task configuration avoidance). */
const EAGER_TASK_CALLS = new Set(['create', 'getByName', 'findByName', 'getByPath', 'all', 'whenTaskAdded']);

/** Every Gradle build under the tree: one per settings file, and one per build script no settings file claims. */
export async function readGradleBuilds(context: ReadContext, rootName: string): Promise<BuildSystemModel[]> {
  const settingsFolders = [...context.tree.folders].filter((folder) =>
    SETTINGS_FILES.some((name) => context.tree.has(fileIn(folder, name))),
  );
  const claimed = new Set<string>();
  const builds: BuildSystemModel[] = [];
  for (const folder of settingsFolders.sort()) {
    const build = await readGradleBuild(context, folder, rootName);
    for (const module of build.modules) claimed.add(module.dir);
    builds.push(build);
  }
  for (const folder of [...context.tree.folders].sort()) {
    if (claimed.has(folder)) continue;
    if (!BUILD_FILES.some((name) => context.tree.has(fileIn(folder, name)))) continue;
    // A build script outside every settings file's projects: Gradle runs it as a single-project build.
    builds.push(await readGradleBuild(context, folder, rootName));
  }
  return builds;
}

interface ProjectEntry {
  id: string;
  dir: string;
}

async function readGradleBuild(
  context: ReadContext,
  root: string,
  rootName: string,
): Promise<BuildSystemModel> {
  const system = emptySystem('gradle', root);
  const properties = await readProperties(context, system, root);
  await readWrapper(context, system, root);
  const settingsFile = SETTINGS_FILES.map((name) => fileIn(root, name)).find((file) =>
    context.tree.has(file),
  );
  const projects = new Map<string, ProjectEntry>();
  const rootId = ':';
  projects.set(rootId, { id: rootId, dir: root });
  let rootProjectName = { name: baseName(root === '.' ? rootName : root), line: 1 };
  let declaredCatalogs = new Map<string, string>();
  if (settingsFile !== undefined) {
    system.files.push(settingsFile);
    const settingsText = await context.text(settingsFile);
    const script = settingsText === undefined ? undefined : await parsed(context, settingsFile, settingsText);
    if (script !== undefined) {
      const named = readSettings(script, root, projects);
      if (named !== undefined) rootProjectName = named;
      declaredCatalogs = catalogsDeclared(script.statements, root);
    }
  }
  const catalogs = await readCatalogs(context, system, root, declaredCatalogs);
  const modules = new Map<string, BuildModule>();
  for (const project of [...projects.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const buildFile = BUILD_FILES.map((name) => fileIn(project.dir, name)).find((file) =>
      context.tree.has(file),
    );
    const module: BuildModule = { system: 'gradle', id: project.id, dir: project.dir, file: buildFile };
    system.modules.push(module);
    modules.set(project.id, module);
  }
  const accessors = projectAccessors(projects);
  for (const module of system.modules) {
    const buildFile = module.file;
    if (buildFile === undefined) continue;
    system.files.push(buildFile);
    const text = await context.text(buildFile);
    if (text === undefined) continue;
    const script = await parsed(context, buildFile, text);
    if (script === undefined) continue;
    const projectProperties = await readProperties(context, system, module.dir, module.dir === root);
    const scope = {
      properties: new Map([...properties, ...projectProperties]),
      catalogs,
      projects,
      accessors,
    };
    // `project(':x') { … }` in a script configures :x from here (Kafka's root build.gradle declares every
    // project's dependencies that way): its statements are read as :x's.
    const own: ScriptStatement[] = [];
    for (const statement of script.statements) {
      const target = statement.kind === 'call' ? configuredProject(statement) : undefined;
      const configured = target === undefined ? undefined : modules.get(target);
      if (configured !== undefined && statement.kind === 'call' && statement.body !== undefined) {
        readBuildScript(system, configured, buildFile, statement.body, scope);
      } else own.push(statement);
    }
    readBuildScript(system, module, buildFile, own, scope);
  }
  system.settings.push(
    ...(settingsFile === undefined
      ? []
      : [
          {
            system: 'gradle' as const,
            key: 'rootProject.name',
            value: rootProjectName.name,
            at: { file: settingsFile, line: rootProjectName.line },
          },
        ]),
  );
  return system;
}

async function parsed(context: ReadContext, file: string, text: string): Promise<ParsedScript | undefined> {
  const language: ScriptLanguage = file.endsWith('.kts') ? 'kotlin' : 'groovy';
  const script = await parseScript(text, language);
  for (const line of script.errorLines.slice(0, 5)) {
    context.problem(
      file,
      line,
      'SYNTAX_ERROR',
      `${file}:${line}: the ${language === 'kotlin' ? 'Kotlin' : 'Groovy'} build script does not parse here; what parsed around it is still read.`,
    );
  }
  return script;
}

/** include / includeFlat / project(':x').projectDir and .name / rootProject.name. Returns the root's name. */
function readSettings(
  script: ParsedScript,
  root: string,
  projects: Map<string, ProjectEntry>,
): { name: string; line: number } | undefined {
  let rootName: { name: string; line: number } | undefined;
  const add = (path: string, dir: string | undefined) => {
    if (dir === undefined) return;
    const id = path.startsWith(':') ? path : `:${path}`;
    // Gradle creates every ancestor of a nested path (`:a:b` makes `:a` too).
    const segments = id.split(':').filter((segment) => segment !== '');
    for (let depth = 1; depth < segments.length; depth++) {
      const ancestor = `:${segments.slice(0, depth).join(':')}`;
      if (!projects.has(ancestor)) {
        const ancestorDir = joinPath(root, segments.slice(0, depth).join('/'));
        if (ancestorDir !== undefined) projects.set(ancestor, { id: ancestor, dir: ancestorDir });
      }
    }
    projects.set(id, { id, dir });
  };
  for (const { call, blocks } of walkCalls(script.statements)) {
    if (blocks.length > 0 && !blocks.every((block) => block === 'settings')) continue;
    if (call.name === 'include' && call.receiver === undefined) {
      for (const path of stringsOf(call.args))
        add(path, joinPath(root, path.replace(/^:/, '').replace(/:/g, '/')));
    } else if (call.name === 'includeFlat') {
      for (const path of stringsOf(call.args)) add(path, joinPath(root, `../${path}`));
    }
  }
  for (const { assignment } of walkAssignments(script.statements)) {
    const target = assignment.target.replace(/\s+/g, '');
    if (target === 'rootProject.name' && assignment.value.kind === 'string') {
      rootName = { name: assignment.value.value, line: assignment.line };
    }
    const configured = /^project\(["']([^"']+)["']\)\.(projectDir|name)$/.exec(target);
    if (configured === null) continue;
    const id = (configured[1] as string).startsWith(':') ? (configured[1] as string) : `:${configured[1]}`;
    const entry = projects.get(id);
    if (entry === undefined) continue;
    if (configured[2] === 'projectDir' && assignment.value.kind === 'call') {
      const dir = stringsOf(assignment.value.call.args)[0];
      const joined = dir === undefined ? undefined : joinPath(root, dir);
      if (joined !== undefined) entry.dir = joined;
    } else if (configured[2] === 'name' && assignment.value.kind === 'string') {
      // A new name changes the project's path (`:storage:api` named storage-api is `:storage:storage-api`),
      // not its folder.
      const renamed = `${id.slice(0, id.lastIndexOf(':') + 1)}${assignment.value.value}`;
      projects.delete(id);
      projects.set(renamed, { id: renamed, dir: entry.dir });
    }
  }
  return rootName;
}

function stringsOf(values: readonly ScriptValue[]): string[] {
  return values.flatMap((value) => (value.kind === 'string' ? [value.value] : []));
}

/** gradle.properties of a folder: its org.gradle.* settings recorded, every key returned for `$name` lookups. */
async function readProperties(
  context: ReadContext,
  system: BuildSystemModel,
  folder: string,
  skip = false,
): Promise<Map<string, { value: string; at: SourceLocation }>> {
  const file = fileIn(folder, 'gradle.properties');
  const found = new Map<string, { value: string; at: SourceLocation }>();
  if (skip || !context.tree.has(file)) return found;
  const text = await context.text(file);
  if (text === undefined) return found;
  system.files.push(file);
  const lines = new LineIndex(text);
  for (const [key, value] of Object.entries(getProperties(text))) {
    const at = { file, line: lines.keyLine(key) ?? 1 };
    found.set(key, { value, at });
    if (key.startsWith('org.gradle.')) system.settings.push({ system: 'gradle', key, value, at });
  }
  return found;
}

async function readWrapper(context: ReadContext, system: BuildSystemModel, root: string): Promise<void> {
  const file = fileIn(root, 'gradle/wrapper/gradle-wrapper.properties');
  if (!context.tree.has(file)) return;
  const text = await context.text(file);
  if (text === undefined) return;
  system.files.push(file);
  const url = getProperties(text).distributionUrl;
  const at = { file, line: new LineIndex(text).keyLine('distributionUrl') ?? 1 };
  system.facts.push({ system: 'gradle', kind: 'wrapper', name: 'gradle-wrapper', at });
  const version = url === undefined ? undefined : /gradle-([^/]+?)-(?:bin|all)\.zip$/.exec(url)?.[1];
  if (version !== undefined) system.tools.push({ system: 'gradle', tool: 'gradle', version, at });
  else
    context.problem(
      file,
      at.line,
      'UNKNOWN_WRAPPER_VERSION',
      `${file}: distributionUrl names no Gradle version.`,
    );
}

/**
 * The catalogs settings declare, name → file: `versionCatalogs { create("libs") { from(files("…")) } }` (and the
 * Groovy `versionCatalogs { libs { from(files('…')) } }`), paths relative to the settings' folder.
 */
function catalogsDeclared(statements: readonly ScriptStatement[], root: string): Map<string, string> {
  const declared = new Map<string, string>();
  for (const { call, blocks } of walkCalls(statements)) {
    if (blocks.at(-1) !== 'versionCatalogs' || call.body === undefined) continue;
    const name = call.name === 'create' ? stringsOf(call.args)[0] : call.name;
    if (name === undefined) continue;
    for (const { call: from } of walkCalls(call.body)) {
      if (from.name !== 'from') continue;
      for (const argument of from.args) {
        if (argument.kind !== 'call' || argument.call.name !== 'files') continue;
        const relative = stringsOf(argument.call.args)[0];
        const file = relative === undefined ? undefined : joinPath(root, relative);
        if (file !== undefined) declared.set(name, file);
      }
    }
  }
  return declared;
}

async function readCatalogs(
  context: ReadContext,
  system: BuildSystemModel,
  root: string,
  declared: ReadonlyMap<string, string>,
): Promise<Map<string, Catalog>> {
  const catalogs = new Map<string, Catalog>();
  const files = new Map(declared);
  // gradle/libs.versions.toml is the `libs` catalog by convention, unless settings declare `libs` themselves.
  const conventional = fileIn(fileIn(root, 'gradle'), 'libs.versions.toml');
  if (!files.has('libs') && context.tree.has(conventional)) files.set('libs', conventional);
  for (const [name, file] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!context.tree.has(file)) {
      context.problem(
        file,
        undefined,
        'CATALOG_NOT_FOUND',
        `The version catalog '${name}' names ${file}, which is not in the build.`,
      );
      continue;
    }
    const text = await context.text(file);
    if (text === undefined) continue;
    if (!system.files.includes(file)) system.files.push(file);
    try {
      const catalog = await readCatalog(name, file, text);
      catalogs.set(name, catalog);
      system.catalogs.push(catalog.summary);
    } catch (error) {
      context.syntaxError(file, error);
    }
  }
  return catalogs;
}

interface ScriptScope {
  properties: Map<string, { value: string; at: SourceLocation }>;
  catalogs: Map<string, Catalog>;
  projects: Map<string, ProjectEntry>;
  /** Type-safe accessor (below `projects.`) → project path. */
  accessors: Map<string, string>;
}

/** The project a top-level `project(':x') { }` block configures. */
function configuredProject(call: ScriptCall): string | undefined {
  if (call.name !== 'project' || call.receiver !== undefined || call.body === undefined) return undefined;
  const path = stringsOf(call.args)[0];
  return path === undefined ? undefined : path.startsWith(':') ? path : `:${path}`;
}

/**
 * The type-safe project accessors Gradle generates (`projects.core.datastoreTest` for `:core:datastore-test`):
 * each path segment in camel case.
 */
function projectAccessors(projects: Map<string, ProjectEntry>): Map<string, string> {
  const camel = (segment: string) =>
    segment.replace(/[-_]+([a-zA-Z0-9])/g, (_, next: string) => next.toUpperCase());
  const accessors = new Map<string, string>();
  for (const id of projects.keys()) {
    if (id === ':') continue;
    accessors.set(id.slice(1).split(':').map(camel).join('.'), id);
  }
  return accessors;
}

function readBuildScript(
  system: BuildSystemModel,
  module: BuildModule,
  file: string,
  statements: readonly ScriptStatement[],
  scope: ScriptScope,
): void {
  // `ext.x = '1'`, `ext { x = '1' }`, `val x = "1"`, `extra["x"] = "1"`: names a notation may interpolate.
  const properties = new Map(scope.properties);
  for (const { assignment, blocks } of walkAssignments(statements)) {
    if (assignment.value.kind !== 'string') continue;
    const target = assignment.target
      .replace(/^(project\.)?(ext|extra)\./, '')
      .replace(/^extra\[["'](.+)["']\]$/, '$1');
    if (
      blocks.length === 0 ||
      blocks[blocks.length - 1] === 'ext' ||
      blocks.every((block) => block === 'buildscript' || block === 'ext')
    ) {
      properties.set(target, { value: assignment.value.value, at: { file, line: assignment.line } });
    }
  }
  for (const { call, blocks } of walkCalls(statements)) {
    const parent = blocks[blocks.length - 1];
    const at = { file, line: call.line };
    if (declaresDependency(call, blocks)) {
      const configuration = blocks.includes('buildscript') ? `buildscript:${call.name}` : call.name;
      for (const argument of call.args) {
        readNotation(system, module, configuration, argument, call, at, properties, scope);
      }
      // Named arguments are one notation (`group: 'g', name: 'n', version: 'v'`).
    }
    if (
      parent === 'repositories' &&
      ['jcenter', 'mavenLocal', 'mavenCentral', 'google', 'gradlePluginPortal'].includes(call.name)
    ) {
      system.facts.push({ system: 'gradle', kind: 'repository', name: call.name, module: module.id, at });
    }
    if (
      blocks.length === 0 &&
      (call.name === 'allprojects' || call.name === 'subprojects') &&
      call.receiver === undefined
    ) {
      system.facts.push({
        system: 'gradle',
        kind: 'cross-project-configuration',
        name: call.name,
        module: module.id,
        at,
      });
    }
    const eager =
      (call.receiver === 'tasks' && EAGER_TASK_CALLS.has(call.name)) ||
      (call.receiver === 'tasks' && call.name === 'withType' && call.body !== undefined) ||
      (call.receiver === undefined && call.name === 'task' && blocks.length === 0);
    if (eager) {
      const api = call.receiver === undefined ? 'task' : `tasks.${call.name}`;
      system.facts.push({ system: 'gradle', kind: 'eager-task-api', name: api, module: module.id, at });
    }
  }
}

function readNotation(
  system: BuildSystemModel,
  module: BuildModule,
  configuration: string,
  argument: ScriptValue,
  call: ScriptCall,
  at: SourceLocation,
  properties: ScriptScope['properties'],
  scope: ScriptScope,
  kind: 'external' | 'platform' = 'external',
): void {
  const push = (
    coordinates: string,
    dependencyKind: 'external' | 'project' | 'platform' | 'files',
    version: DeclaredVersion,
  ) => {
    system.dependencies.push({
      system: 'gradle',
      module: module.id,
      configuration,
      coordinates,
      kind: dependencyKind,
      version,
      at,
    });
  };
  /**
   * A dependency on another project of the build: also an edge between the two modules. Under `platform(…)`
   * the project is a platform (its constraints are what is consumed), yet Gradle still depends on it.
   */
  const pushProject = (target: string) => {
    push(target, kind === 'platform' ? 'platform' : 'project', { source: 'none' });
    system.edges.push({
      system: 'gradle',
      from: module.id,
      to: target,
      kind: 'dependency',
      configuration,
      at,
    });
  };
  if (argument.kind === 'string') {
    const parts = argument.value.split('@')[0]?.split(':') ?? [];
    if (parts.length < 2) return;
    const coordinates = `${parts[0]}:${parts[1]}`;
    push(coordinates, kind, versionFrom(parts[2], at, properties));
    return;
  }
  if (argument.kind === 'named') {
    // One notation spread over named arguments: read it once, from its `name` argument.
    if (argument.key !== 'name') return;
    const named = new Map(
      call.args.flatMap((value) => (value.kind === 'named' ? [[value.key, value.value] as const] : [])),
    );
    const text = (key: string) => {
      const value = named.get(key);
      return value?.kind === 'string' ? value.value : undefined;
    };
    const group = text('group');
    const name = text('name');
    if (name === undefined) return;
    push(group === undefined ? name : `${group}:${name}`, kind, versionFrom(text('version'), at, properties));
    return;
  }
  if (argument.kind === 'call') {
    const inner = argument.call;
    if (inner.name === 'project') {
      const path = stringsOf(inner.args)[0] ?? namedString(inner.args, 'path');
      if (path === undefined) return;
      pushProject(path.startsWith(':') ? path : `:${path}`);
      return;
    }
    if (inner.name === 'platform' || inner.name === 'enforcedPlatform') {
      for (const value of inner.args)
        readNotation(system, module, configuration, value, inner, at, properties, scope, 'platform');
      return;
    }
    if (inner.name === 'files' || inner.name === 'fileTree') {
      push(stringsOf(inner.args).join(', ') || inner.name, 'files', { source: 'none' });
      return;
    }
    if (inner.name === 'kotlin' && inner.receiver === undefined) {
      const name = stringsOf(inner.args)[0];
      if (name === undefined) return;
      const version = stringsOf(inner.args)[1] ?? namedString(inner.args, 'version');
      push(
        `org.jetbrains.kotlin:kotlin-${name}`,
        kind,
        version === undefined
          ? {
              source: 'none',
              unknown:
                'kotlin("…") without a version takes the Kotlin plugin\'s version, known only to Gradle.',
            }
          : versionFrom(version, at, properties),
      );
      return;
    }
    if (inner.name === 'get' && inner.receiver !== undefined) {
      // `libs.foo.get()` in the Kotlin DSL.
      readNotation(
        system,
        module,
        configuration,
        { kind: 'reference', path: inner.receiver, line: inner.line },
        call,
        at,
        properties,
        scope,
        kind,
      );
      return;
    }
    return;
  }
  if (argument.kind === 'reference' && argument.path.startsWith('projects.')) {
    const target = scope.accessors.get(argument.path.slice('projects.'.length));
    if (target !== undefined) {
      pushProject(target);
      return;
    }
  }
  if (argument.kind === 'reference') {
    const [catalogName, ...rest] = argument.path.split('.');
    const catalog = catalogName === undefined ? undefined : scope.catalogs.get(catalogName);
    if (catalog === undefined) {
      push(argument.path, kind, {
        source: 'none',
        unknown: `${argument.path} is a value computed by the build script; only Gradle knows it.`,
      });
      return;
    }
    const accessor = rest.join('.');
    const bundle = accessor.startsWith('bundles.')
      ? catalog.bundles.get(accessor.slice('bundles.'.length))
      : undefined;
    const aliases = bundle ?? [accessor];
    for (const alias of aliases) {
      const library = catalog.libraries.get(bundle === undefined ? alias : alias.replace(/[-_.]/g, '.'));
      if (library === undefined) {
        push(`${catalogName}.${alias}`, kind, {
          source: 'catalog',
          via: `${catalogName}.${alias}`,
          unknown: `the catalog ${catalog.summary.file} has no library ${alias}.`,
        });
        continue;
      }
      push(library.module, kind, {
        spec: library.version,
        source: 'catalog',
        via: `${catalogName}.${accessorOrAlias(library.alias)}`,
        definedAt: library.versionAt ?? library.at,
        ...(library.version === undefined
          ? { unknown: 'the catalog entry has no version (a platform or a constraint supplies it).' }
          : {}),
      });
    }
  }
}

function accessorOrAlias(alias: string): string {
  return alias.replace(/[-_]/g, '.');
}

function namedString(values: readonly ScriptValue[], key: string): string | undefined {
  for (const value of values) {
    if (value.kind === 'named' && value.key === key && value.value.kind === 'string')
      return value.value.value;
  }
  return undefined;
}

/** A version as written: a literal, a `$property` found in gradle.properties or the script, or unknown. */
function versionFrom(
  written: string | undefined,
  at: SourceLocation,
  properties: ScriptScope['properties'],
): DeclaredVersion {
  if (written === undefined || written === '') {
    return {
      source: 'none',
      unknown: 'no version: a platform, a constraint or a plugin supplies it, known only to Gradle.',
    };
  }
  const reference = /^\$\{?([A-Za-z_][\w.]*)\}?$/.exec(written);
  if (reference === null) {
    if (written.includes('$'))
      return {
        spec: undefined,
        source: 'property',
        via: written,
        unknown: `${written} is an expression Gradle evaluates.`,
      };
    return { spec: written, source: 'literal' };
  }
  const name = (reference[1] as string).replace(/^(project\.|rootProject\.)?(ext\.)?/, '');
  const property = properties.get(name);
  if (property === undefined) {
    return {
      source: 'property',
      via: name,
      unknown: `the property ${name} is set outside the files read (a plugin, an init script, -P); only Gradle knows it.`,
    };
  }
  void at;
  return { spec: property.value, source: 'property', via: name, definedAt: property.at };
}
