// Maven reactors read statically: every pom.xml (text kept as text: `1.10` stays `1.10`), the reactor each
// aggregator's <modules> builds, <parent> links, properties, <dependencyManagement> (with `import` BOMs),
// dependencies with where their versions come from, build plugins and their versions, and the wrapper.
import { getProperties } from 'properties-file';
import type { SaxesParser } from 'saxes';
import { LineIndex } from '../../text/lineIndex.js';
import type { BuildSystemModel, SourceLocation } from '../../workspace/model.js';
import { emptySystem, fileIn, folderOf, joinPath, type ReadContext } from '../readContext.js';
import { PomVersions, resolveProperties } from './pomVersions.js';

/** An element of a POM: its name as written, the line of its `<`, its text (trimmed), its child elements. */
interface Element {
  name: string;
  line: number;
  text: string;
  children: Element[];
}

let saxes: Promise<typeof SaxesParser> | undefined;

/** The XML parser, loaded when the first pom.xml is met rather than at every start (a Gradle build needs none). */
function saxesOnce(): Promise<typeof SaxesParser> {
  saxes ??= import('saxes').then(({ SaxesParser }) => SaxesParser);
  return saxes;
}

/**
 * The POM's elements as a tree. A well-formed document or an error with the line (Maven refuses a POM that
 * is not well-formed XML too); text and CDATA joined and trimmed (comments between the pieces of a value
 * are dropped, as Maven's parser drops them); the five XML entities and character references resolved.
 */
async function elementsOf(source: string): Promise<Element> {
  const Parser = await saxesOnce();
  const parser = new Parser({ position: true });
  const document: Element = { name: '', line: 1, text: '', children: [] };
  const open: Element[] = [document];
  const lines = new LineIndex(source);
  let line = 1;
  parser.on('opentagstart', () => {
    // The line of the `<`: saxes is past the name and the character after it (a line end, in `<project\n
    // xmlns=…>`), and `opentag` comes after the attributes. `position` counts UTF-16 units of the source.
    line = lines.lineAt(source.lastIndexOf('<', parser.position - 1));
  });
  parser.on('opentag', (tag) => {
    const element: Element = { name: tag.name, line, text: '', children: [] };
    (open[open.length - 1] as Element).children.push(element);
    open.push(element);
  });
  parser.on('closetag', () => {
    const element = open.pop() as Element;
    element.text = element.text.trim();
  });
  const addText = (text: string) => {
    (open[open.length - 1] as Element).text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    parser.write(source).close();
  } catch (error) {
    throw Object.assign(new Error((error as Error).message.replace(/^\d+:\d+: /, '')), {
      line: parser.line,
    });
  }
  return document;
}

export interface Pom {
  dir: string;
  file: string;
  groupId?: string | undefined;
  artifactId: string;
  version?: string | undefined;
  /** Where the version is written: the POM's own <version>, else the <parent> it inherits it from. */
  versionAt?: SourceLocation | undefined;
  packaging: string;
  parent?:
    | {
        groupId?: string | undefined;
        artifactId?: string | undefined;
        version?: string | undefined;
        relativePath: string;
        at: SourceLocation;
      }
    | undefined;
  modules: Array<{ path: string; at: SourceLocation }>;
  properties: Map<string, { value: string; at: SourceLocation }>;
  managed: PomDependency[];
  dependencies: PomDependency[];
  plugins: Array<{ key: string; version?: string | undefined; managed: boolean; at: SourceLocation }>;
}

export interface PomDependency {
  groupId: string;
  artifactId: string;
  version?: string | undefined;
  scope?: string | undefined;
  type?: string | undefined;
  classifier?: string | undefined;
  at: SourceLocation;
  versionAt?: SourceLocation | undefined;
}

function child(element: Element | undefined, name: string): Element | undefined {
  return element?.children.find((each) => each.name === name);
}

function children(element: Element | undefined, name: string): Element[] {
  return element?.children.filter((each) => each.name === name) ?? [];
}

function text(element: Element | undefined, name: string): string | undefined {
  return child(element, name)?.text;
}

export async function parsePom(file: string, source: string): Promise<Pom> {
  const locate = (element: Element | undefined): SourceLocation => ({ file, line: element?.line ?? 1 });
  const document = await elementsOf(source);
  const project = child(document, 'project');
  if (project === undefined) throw Object.assign(new Error('no <project> element'), { line: 1 });
  const parentElement = child(project, 'parent');
  const dependencyOf = (element: Element): PomDependency | undefined => {
    const groupId = text(element, 'groupId');
    const artifactId = text(element, 'artifactId');
    if (groupId === undefined || artifactId === undefined) return undefined;
    const versionElement = child(element, 'version');
    return {
      groupId,
      artifactId,
      version: text(element, 'version'),
      scope: text(element, 'scope'),
      type: text(element, 'type'),
      classifier: text(element, 'classifier'),
      at: locate(element),
      versionAt: versionElement === undefined ? undefined : locate(versionElement),
    };
  };
  const properties = new Map<string, { value: string; at: SourceLocation }>();
  const propertiesElement = child(project, 'properties');
  for (const property of propertiesElement?.children ?? []) {
    // A property written twice: the first is the one read.
    if (!properties.has(property.name))
      properties.set(property.name, { value: property.text, at: locate(property) });
  }
  const build = child(project, 'build');
  const ownVersion = child(project, 'version');
  const pluginsOf = (owner: Element | undefined, managed: boolean) =>
    children(child(owner, 'plugins'), 'plugin').map((plugin) => ({
      key: `${text(plugin, 'groupId') ?? 'org.apache.maven.plugins'}:${text(plugin, 'artifactId') ?? ''}`,
      version: text(plugin, 'version'),
      managed,
      at: locate(plugin),
    }));
  return {
    dir: folderOf(file),
    file,
    groupId: text(project, 'groupId') ?? text(parentElement, 'groupId'),
    artifactId: text(project, 'artifactId') ?? '',
    version: text(project, 'version') ?? text(parentElement, 'version'),
    versionAt:
      ownVersion !== undefined
        ? locate(ownVersion)
        : parentElement === undefined
          ? undefined
          : locate(child(parentElement, 'version') ?? parentElement),
    packaging: text(project, 'packaging') ?? 'jar',
    parent:
      parentElement === undefined
        ? undefined
        : {
            groupId: text(parentElement, 'groupId'),
            artifactId: text(parentElement, 'artifactId'),
            version: text(parentElement, 'version'),
            relativePath: text(parentElement, 'relativePath') ?? '../pom.xml',
            at: locate(parentElement),
          },
    modules: children(child(project, 'modules'), 'module').map((module) => ({
      path: module.text,
      at: locate(module),
    })),
    properties,
    managed: children(child(child(project, 'dependencyManagement'), 'dependencies'), 'dependency').flatMap(
      (d) => dependencyOf(d) ?? [],
    ),
    dependencies: children(child(project, 'dependencies'), 'dependency').flatMap(
      (d) => dependencyOf(d) ?? [],
    ),
    plugins: [...pluginsOf(build, false), ...pluginsOf(child(build, 'pluginManagement'), true)],
  };
}

const idOf = (pom: Pom) => `${pom.groupId ?? '?'}:${pom.artifactId}`;

export async function readMavenReactors(context: ReadContext): Promise<BuildSystemModel[]> {
  const poms = new Map<string, Pom>();
  for await (const { file, text: source } of context.textsNamed('pom.xml')) {
    try {
      poms.set(folderOf(file), await parsePom(file, source));
    } catch (error) {
      context.syntaxError(file, error, 'the POM does not parse');
    }
  }
  // A reactor root: a POM no other POM lists in <modules>.
  const listed = new Set<string>();
  for (const pom of poms.values()) {
    for (const module of pom.modules) {
      const dir = joinPath(pom.dir, module.path.replace(/\/pom\.xml$/, ''));
      if (dir !== undefined) listed.add(dir);
    }
  }
  const versions = await pomVersions(context, poms);
  const systems: BuildSystemModel[] = [];
  for (const root of [...poms.values()].filter((pom) => !listed.has(pom.dir))) {
    const system = emptySystem('maven', root.dir);
    const members: Pom[] = [];
    const visit = (pom: Pom, seen: Set<string>) => {
      if (seen.has(pom.dir)) return;
      seen.add(pom.dir);
      members.push(pom);
      for (const module of pom.modules) {
        const dir = joinPath(pom.dir, module.path.replace(/\/pom\.xml$/, ''));
        const target = dir === undefined ? undefined : poms.get(dir);
        if (target === undefined) {
          context.problem(
            pom.file,
            module.at.line,
            'MODULE_NOT_FOUND',
            `${pom.file}:${module.at.line}: <module>${module.path}</module> names no folder with a pom.xml.`,
          );
          continue;
        }
        system.edges.push({
          system: 'maven',
          from: idOf(pom),
          to: idOf(target),
          kind: 'aggregates',
          at: module.at,
        });
        visit(target, seen);
      }
    };
    visit(root, new Set());
    readReactor(system, members, poms, versions);
    await readMavenWrapper(context, system, root.dir);
    systems.push(system);
  }
  return systems;
}

/**
 * The versions the tree's POMs manage; one for all reactors: a BOM read for versions may be any POM of the
 * tree, in a reactor or not. With a local repository, the tree is read again while its POMs ask for
 * repository POMs not read yet (each round reads all it asked for; a parent's parent is known only once the
 * parent is read), so the last reading sees every repository POM it needs, up to the repository's budget
 * and its rounds.
 */
async function pomVersions(context: ReadContext, poms: Map<string, Pom>): Promise<PomVersions> {
  const tree = [...poms.values()];
  const treeParent = (pom: Pom) => parentOf(pom, poms);
  const repository = context.mavenRepository;
  for (;;) {
    const versions = new PomVersions(tree, treeParent, repository);
    if (repository === undefined || !versions.needsRepository()) return versions;
    await repository.readWanted();
  }
}

/** The POM a `<parent>` names: its relativePath when that POM matches, else unknown (a repository's). */
export function parentOf(pom: Pom, poms: Map<string, Pom>): Pom | undefined {
  if (pom.parent === undefined) return undefined;
  const path = pom.parent.relativePath.replace(/\/?pom\.xml$/, '');
  const dir = path === '' ? undefined : joinPath(pom.dir, path);
  const candidate = dir === undefined ? undefined : poms.get(dir);
  if (candidate !== undefined && candidate.artifactId === pom.parent.artifactId) return candidate;
  return undefined;
}

function readReactor(
  system: BuildSystemModel,
  members: readonly Pom[],
  poms: Map<string, Pom>,
  versions: PomVersions,
): void {
  const reactorIds = new Set(members.map(idOf));
  for (const pom of members) {
    system.files.push(pom.file);
    system.modules.push({
      system: 'maven',
      id: idOf(pom),
      dir: pom.dir,
      file: pom.file,
      version: pom.version,
    });
    const parent = parentOf(pom, poms);
    if (pom.parent !== undefined) {
      const to =
        parent === undefined ? `${pom.parent.groupId ?? '?'}:${pom.parent.artifactId ?? '?'}` : idOf(parent);
      if (parent !== undefined || reactorIds.has(to))
        system.edges.push({ system: 'maven', from: idOf(pom), to, kind: 'parent', at: pom.parent.at });
    }
    const lineage = versions.lineageOf(pom);
    for (const dependency of pom.dependencies) {
      const coordinates = `${dependency.groupId}:${dependency.artifactId}`;
      const resolvedGroup = resolveProperties(dependency.groupId, lineage).value;
      const resolvedCoordinates = `${resolvedGroup}:${dependency.artifactId}`;
      const local = reactorIds.has(resolvedCoordinates);
      // A dependency without a scope or version takes its <dependencyManagement> entry's (Maven injects them).
      const managed =
        dependency.scope === undefined || dependency.version === undefined
          ? versions.managedFor(dependency, pom)
          : undefined;
      const scope =
        dependency.scope ??
        (managed !== undefined && 'entry' in managed ? managed.entry.scope : undefined) ??
        'compile';
      system.dependencies.push({
        system: 'maven',
        module: idOf(pom),
        configuration: scope,
        coordinates: resolvedCoordinates === coordinates ? coordinates : resolvedCoordinates,
        kind: local ? 'project' : dependency.type === 'pom' && scope === 'import' ? 'platform' : 'external',
        version: versions.versionOf(dependency, pom, managed),
        at: dependency.at,
      });
      if (local)
        system.edges.push({
          system: 'maven',
          from: idOf(pom),
          to: resolvedCoordinates,
          kind: 'dependency',
          configuration: scope,
          at: dependency.at,
        });
    }
    for (const managed of pom.managed) {
      if (managed.scope === 'import') {
        system.dependencies.push({
          system: 'maven',
          module: idOf(pom),
          configuration: 'import',
          coordinates: `${managed.groupId}:${managed.artifactId}`,
          kind: 'platform',
          version: versions.versionOf(managed, pom),
          at: managed.at,
        });
      }
    }
    for (const plugin of pom.plugins) {
      system.facts.push({
        system: 'maven',
        kind: plugin.managed ? 'maven-plugin-management' : 'maven-plugin',
        name: plugin.key,
        version: plugin.version ?? managedPluginVersion(plugin.key, lineage),
        module: idOf(pom),
        at: plugin.at,
      });
    }
  }
}

function managedPluginVersion(key: string, lineage: readonly Pom[]): string | undefined {
  for (const pom of lineage) {
    const managed = pom.plugins.find(
      (plugin) => plugin.managed && plugin.key === key && plugin.version !== undefined,
    );
    if (managed !== undefined) return managed.version;
  }
  return undefined;
}

async function readMavenWrapper(context: ReadContext, system: BuildSystemModel, root: string): Promise<void> {
  const file = fileIn(root, '.mvn/wrapper/maven-wrapper.properties');
  if (!context.tree.has(file)) return;
  const source = await context.text(file);
  if (source === undefined) return;
  system.files.push(file);
  const properties = getProperties(source);
  const lines = new LineIndex(source);
  const url = properties.distributionUrl;
  const at = { file, line: lines.keyLine('distributionUrl') ?? 1 };
  system.facts.push({ system: 'maven', kind: 'wrapper', name: 'maven-wrapper', at });
  const version =
    url === undefined ? undefined : /apache-maven-([^/]+?)-bin\.(?:zip|tar\.gz)$/.exec(url.trim())?.[1];
  if (version !== undefined) system.tools.push({ system: 'maven', tool: 'maven', version, at });
  // The wrapper's own version: `wrapperVersion` (3.3 on), else the jar that `wrapperUrl` downloads.
  const wrapperVersion =
    properties.wrapperVersion?.trim() ||
    /maven-wrapper-([^/]+?)\.jar$/.exec(properties.wrapperUrl?.trim() ?? '')?.[1];
  if (wrapperVersion !== undefined && wrapperVersion !== '') {
    const key = properties.wrapperVersion === undefined ? 'wrapperUrl' : 'wrapperVersion';
    system.tools.push({
      system: 'maven',
      tool: 'maven-wrapper',
      version: wrapperVersion,
      at: { file, line: lines.keyLine(key) ?? 1 },
    });
  }
}
