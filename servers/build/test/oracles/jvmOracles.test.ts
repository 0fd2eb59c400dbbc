// The Gradle and Maven readers against the real tools, on builds written at test time: the projects and
// project→project edges build_workspace finds must be the ones Gradle 4.4.1 itself evaluates (an init script
// that prints every project's path, folder and ProjectDependency per configuration as JSON), and the reactor
// members and module→module dependencies must be Maven's own (`mvn -o dependency:tree -DoutputType=tgf`, whose
// log also prints the reactor in build order), and each direct dependency's scope and version, where
// build_dependencies says it comes from, must be the ones dependency:tree selects. Each tool runs once per file.
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredDependencies } from '../../src/core/dependencies/declaredDependencies.js';
import type { BuildSystemModel, DeclaredDependency, Workspace } from '../../src/core/workspace/model.js';
import { readWorkspace } from '../../src/core/workspace/readWorkspace.js';
import { DEBIAN_REPO, MAVEN_SETTINGS, scratch, toolPresent, writeTree } from '../run/builds.js';
import { dependencyTreeLog, directDependencies } from './mavenTgf.js';

const run = promisify(execFile);

async function ours(root: string): Promise<Workspace> {
  await using directory = await ConfinedDirectory.confinedTo(root);
  return await readWorkspace(directory, path.basename(root));
}

function only(workspace: Workspace, kind: BuildSystemModel['kind']): BuildSystemModel {
  const systems = workspace.systems.filter((system) => system.kind === kind);
  expect(systems).toHaveLength(1);
  return systems[0] as BuildSystemModel;
}

const gradlePresent = toolPresent('gradle');
const mavenPresent = toolPresent('mvn');

// Nested paths (`libs:core` makes `:libs` too), a leading colon, a project moved with projectDir, a project
// renamed in settings (its path changes, its folder does not), and project dependencies written as a string, as
// `path:` and across configurations.
const GRADLE_BUILD: Record<string, string> = {
  'settings.gradle': `rootProject.name = 'oracle'
include 'libs:core', 'libs:util'
include ':apps:web'
include 'odd'
project(':odd').projectDir = file('custom/place')
include 'storage:api'
project(':storage:api').name = 'storage-api'
`,
  'build.gradle': `allprojects { apply plugin: 'java' }
`,
  'libs/core/build.gradle': `dependencies {
  compile project(':libs:util')
  runtime project(':storage:storage-api')
}
`,
  'libs/util/build.gradle': '',
  'apps/web/build.gradle': `dependencies {
  compile project(':libs:core')
  testCompile project(path: ':odd')
}
`,
  'custom/place/build.gradle': `dependencies {
  compileOnly project(':libs:util')
}
`,
  'storage/api/build.gradle': '',
};

// Gradle's own model after configuration: each project's path, folder and project dependencies.
const GRADLE_INIT = `gradle.projectsEvaluated { g ->
  def root = g.rootProject.projectDir.toPath()
  def out = g.rootProject.allprojects.collect { p ->
    [path: p.path, dir: root.relativize(p.projectDir.toPath()).toString() ?: '.',
     deps: p.configurations.collectMany { c ->
       c.dependencies.withType(ProjectDependency).collect { [configuration: c.name, to: it.dependencyProject.path] }
     }]
  }
  println 'ORACLE ' + groovy.json.JsonOutput.toJson(out)
}
`;

describe.skipIf(!gradlePresent)('Gradle 4.4.1: projects and project edges', () => {
  let root: string;
  let theirs: Array<{ path: string; dir: string; deps: Array<{ configuration: string; to: string }> }>;
  beforeAll(async () => {
    root = await scratch('oracle-gradle');
    await writeTree(root, { ...GRADLE_BUILD, 'oracle-init.gradle': GRADLE_INIT });
    const { stdout } = await run(
      'gradle',
      ['-q', '--offline', '--no-daemon', '--init-script', 'oracle-init.gradle', 'help'],
      { cwd: root, maxBuffer: 16 << 20 },
    );
    const line = stdout.split('\n').find((text) => text.startsWith('ORACLE '));
    theirs = JSON.parse((line as string).slice('ORACLE '.length));
  }, 300_000);
  afterAll(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it('has the projects (paths and folders) Gradle evaluates', async () => {
    const system = only(await ours(root), 'gradle');
    expect(system.modules.map((module) => `${module.id} ${module.dir}`).sort()).toEqual(
      theirs.map((project) => `${project.path} ${project.dir}`).sort(),
    );
  });

  it('has the project dependencies, per configuration, that Gradle has', async () => {
    const system = only(await ours(root), 'gradle');
    const edges = system.edges
      .filter((edge) => edge.kind === 'dependency')
      .map((edge) => `${edge.from} -> ${edge.to} (${edge.configuration})`);
    expect([...new Set(edges)].sort()).toEqual(
      theirs
        .flatMap((project) =>
          project.deps.map((dep) => `${project.path} -> ${dep.to} (${dep.configuration})`),
        )
        .sort(),
    );
  });
});

const pom = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
${body}
</project>
`;
const parentOf = (artifact: string, relativePath?: string) =>
  `  <parent><groupId>oracle</groupId><artifactId>${artifact}</artifactId><version>1.0</version>${
    relativePath === undefined ? '' : `<relativePath>${relativePath}</relativePath>`
  }</parent>`;

const dependency = (group: string, artifact: string, more = '') =>
  `    <dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId>${more}</dependency>`;
const version = (value: string) => `<version>${value}</version>`;
const ref = (name: string) => `$${'{'}${name}}`;

// A parent that aggregates an app and a nested aggregator (libs) whose modules inherit from libs or, by
// relativePath, from the root; a module with its own groupId and version; dependencies listed before the
// modules they need, so Maven's reactor order is not the declaration order.
// Versions from every static source, each candidate a different version so that the one Maven selects shows
// which source won: a literal, a property (overridden by an intermediate parent, or a child, or through
// another property), project.version, <dependencyManagement> of the parent and of the module itself (which
// wins), a managed scope, and a BOM from Debian's repository imported by the parent (whose versions only Maven
// knows; an explicit managed entry beats it).
const MAVEN_BUILD: Record<string, string> = {
  'settings.xml': MAVEN_SETTINGS,
  'pom.xml': pom(`  <groupId>oracle</groupId>
  <artifactId>parent</artifactId>
  <version>1.0</version>
  <packaging>pom</packaging>
  <modules>
    <module>app</module>
    <module>libs</module>
  </modules>
  <properties>
    <qdox.version>1.12.1</qdox.version>
    <io.base>2.11.0</io.base>
    <io.version>${ref('io.base')}</io.version>
    <lang3.version>debian</lang3.version>
    <guava.version>debian</guava.version>
  </properties>
  <dependencyManagement>
    <dependencies>
${dependency('org.junit', 'junit-bom', `${version('5.9.2')}<type>pom</type><scope>import</scope>`)}
${dependency('org.junit.jupiter', 'junit-jupiter-params', version('5.9.2'))}
${dependency('com.google.guava', 'guava', version(ref('guava.version')))}
${dependency('commons-io', 'commons-io', version(ref('io.version')))}
${dependency('junit', 'junit', `${version('4.13.2')}<scope>test</scope>`)}
${dependency('org.slf4j', 'slf4j-api', version('1.7.32'))}
    </dependencies>
  </dependencyManagement>
  <build><plugins><plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.5.0</version></plugin></plugins></build>`),
  'libs/pom.xml': pom(`${parentOf('parent')}
  <artifactId>libs</artifactId>
  <packaging>pom</packaging>
  <properties>
    <lang3.version>3.12.0</lang3.version>
  </properties>
  <modules>
    <module>core</module>
    <module>util</module>
  </modules>`),
  'libs/core/pom.xml': pom(`${parentOf('libs')}
  <artifactId>core</artifactId>
  <properties>
    <guava.version>31.1-jre</guava.version>
  </properties>
  <dependencyManagement>
    <dependencies>
${dependency('org.slf4j', 'slf4j-api', version('debian'))}
    </dependencies>
  </dependencyManagement>
  <dependencies>
${dependency('oracle.util', 'util', version('2.0'))}
${dependency('org.apache.commons', 'commons-lang3', version(ref('lang3.version')))}
${dependency('com.google.guava', 'guava')}
${dependency('org.slf4j', 'slf4j-api')}
${dependency('commons-io', 'commons-io')}
${dependency('junit', 'junit')}
${dependency('org.junit.jupiter', 'junit-jupiter-api', '<scope>test</scope>')}
${dependency('org.junit.jupiter', 'junit-jupiter-params', '<scope>test</scope>')}
  </dependencies>`),
  'libs/util/pom.xml': pom(`${parentOf('parent', '../../pom.xml')}
  <groupId>oracle.util</groupId>
  <artifactId>util</artifactId>
  <version>2.0</version>`),
  'app/pom.xml': pom(`${parentOf('parent')}
  <artifactId>app</artifactId>
  <dependencies>
${dependency(ref('project.groupId'), 'core', version(ref('project.version')))}
${dependency('oracle.util', 'util', `${version('2.0')}<scope>test</scope>`)}
${dependency('com.thoughtworks.qdox', 'qdox', version(ref('qdox.version')))}
  </dependencies>`),
};

describe.skipIf(!mavenPresent)('Maven 3.8.7: reactor members, order and module edges', () => {
  let root: string;
  let log: string;
  beforeAll(async () => {
    root = await scratch('oracle-maven');
    await writeTree(root, MAVEN_BUILD);
    log = await dependencyTreeLog(root);
  }, 300_000);
  afterAll(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  /** The reactor in Maven's build order, from each project's `---< groupId:artifactId >---` banner. */
  const reactor = () => [...log.matchAll(/^\[INFO\] -+< (\S+) >-+$/gm)].map((m) => m[1] as string);

  it('has the reactor members Maven builds, and Maven builds each after the modules it needs', async () => {
    const system = only(await ours(root), 'maven');
    const order = reactor();
    expect(order).toHaveLength(5);
    expect(system.modules.map((module) => module.id).sort()).toEqual([...order].sort());
    // Maven's order is a topological order of the edges we found: a parent and a dependency come first.
    for (const edge of system.edges.filter((edge) => edge.kind !== 'aggregates')) {
      expect(order.indexOf(edge.to), `${edge.from} -${edge.kind}-> ${edge.to}`).toBeLessThan(
        order.indexOf(edge.from),
      );
    }
    // And it is not the declaration order (app is listed first): the edges are what moved it.
    expect(order.indexOf('oracle:app')).toBe(order.length - 1);
  });

  it('has the module→module dependencies, with their scopes, that dependency:tree prints', async () => {
    const system = only(await ours(root), 'maven');
    const members = new Set(reactor());
    const theirs = directDependencies(log)
      .filter((direct) => members.has(direct.coordinates))
      .map((direct) => `${direct.module} -> ${direct.coordinates} (${direct.scope})`);
    expect(theirs.length).toBeGreaterThan(0);
    const edges = system.edges
      .filter((edge) => edge.kind === 'dependency')
      .map((edge) => `${edge.from} -> ${edge.to} (${edge.configuration ?? 'compile'})`);
    expect([...new Set(edges)].sort()).toEqual(theirs.sort());
  });

  // Where each version comes from, as build_dependencies answers it. Every candidate source in MAVEN_BUILD
  // has a different version, so Maven's selection names the source that won; the table is that reading.
  const SOURCES: Record<string, { source: string; file: string }> = {
    'oracle:core oracle.util:util': { source: 'literal', file: 'libs/core/pom.xml' },
    'oracle:core org.apache.commons:commons-lang3': { source: 'property', file: 'libs/pom.xml' },
    'oracle:core com.google.guava:guava': { source: 'parent', file: 'libs/core/pom.xml' },
    'oracle:core org.slf4j:slf4j-api': { source: 'dependency-management', file: 'libs/core/pom.xml' },
    'oracle:core commons-io:commons-io': { source: 'parent', file: 'pom.xml' },
    'oracle:core junit:junit': { source: 'parent', file: 'pom.xml' },
    'oracle:core org.junit.jupiter:junit-jupiter-api': { source: 'bom', file: 'pom.xml' },
    'oracle:core org.junit.jupiter:junit-jupiter-params': { source: 'parent', file: 'pom.xml' },
    'oracle:app oracle:core': { source: 'property', file: 'app/pom.xml' },
    'oracle:app oracle.util:util': { source: 'literal', file: 'app/pom.xml' },
    'oracle:app com.thoughtworks.qdox:qdox': { source: 'property', file: 'pom.xml' },
  };

  it("answers each direct dependency's scope and version as Maven selects them, and the line to edit", async () => {
    const workspace = await ours(root);
    const declared = declaredDependencies(workspace, { system: 'maven' }).filter(
      (d) => d.configuration !== 'import',
    );
    const theirs = directDependencies(log);
    expect(declared.map((d) => `${d.module} ${d.coordinates}`).sort()).toEqual(
      theirs.map((t) => `${t.module} ${t.coordinates}`).sort(),
    );
    expect(Object.keys(SOURCES).sort()).toEqual(theirs.map((t) => `${t.module} ${t.coordinates}`).sort());
    for (const selected of theirs) {
      const key = `${selected.module} ${selected.coordinates}`;
      const ourOwn = declared.find((d) => `${d.module} ${d.coordinates}` === key) as DeclaredDependency;
      expect(ourOwn.configuration, key).toBe(selected.scope);
      const expected = SOURCES[key] as { source: string; file: string };
      expect(ourOwn.version.source, key).toBe(expected.source);
      if (expected.source === 'bom') {
        // Only Maven knows a BOM's versions: said so, naming the BOM, and the BOM does hold Maven's version.
        expect(ourOwn.version.spec, key).toBeUndefined();
        expect(ourOwn.version.unknown, key).toContain('BOM');
        expect(ourOwn.version.via, key).toBe('org.junit:junit-bom');
        const bom = await readFile(`${DEBIAN_REPO}/org/junit/junit-bom/5.9.2/junit-bom-5.9.2.pom`, 'utf8');
        const [, artifact] = selected.coordinates.split(':');
        expect(bom).toMatch(
          new RegExp(`<artifactId>${artifact}</artifactId>\\s*<version>${selected.version}</version>`),
        );
        continue;
      }
      expect(ourOwn.version.unknown, key).toBeUndefined();
      expect(ourOwn.version.spec, key).toBe(selected.version);
      // The line to edit (build_why's `edit`) is where that version is written.
      const edit = ourOwn.version.definedAt ?? ourOwn.at;
      expect(edit.file, key).toBe(expected.file);
      const line = (await readFile(path.join(root, edit.file), 'utf8')).split('\n')[edit.line - 1];
      expect(line, key).toContain(`>${selected.version}<`);
    }
  });
});
