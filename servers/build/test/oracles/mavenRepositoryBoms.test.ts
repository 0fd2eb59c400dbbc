// BOMs and parents from a local Maven repository, against Maven 3.8.7 itself: every version build_dependencies
// answers statically for a versionless dependency of a reactor whose parent and BOMs live in the repository
// (not the tree) must be the one `mvn -o dependency:tree` selects, with the BOM it came through and the line of
// the tree to edit. The repository is a temporary one holding generated POMs — a parent chain with properties
// and management, a BOM whose property resolves in its own parent, a BOM importing a BOM, a parent importing a
// BOM — and copies of Debian's real junit-bom, guice-bom and jetty-bom with their parents; everything else
// Maven needs is a link into Debian's repository, so Maven writes nothing there. Each rule decides a version a
// wrong rule would get different.
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredDependencies } from '../../src/core/dependencies/declaredDependencies.js';
import type { DeclaredDependency } from '../../src/core/workspace/model.js';
import { readWorkspace } from '../../src/core/workspace/readWorkspace.js';
import { scratch, toolPresent, writeTree } from '../run/builds.js';
import { dependencyTreeLog, directDependencies } from './mavenTgf.js';

const mavenPresent = toolPresent('mvn');
const DEBIAN_REPO = '/usr/share/maven-repo';

/** The release of a Debian BOM (besides its `debian` / `9.x` alias): a security update moves it. */
function release(folder: string): string {
  const where = path.join(DEBIAN_REPO, folder);
  const versions = existsSync(where) ? readdirSync(where) : [];
  return versions.find((version) => /^\d/.test(version) && !/^\d+\.x$/.test(version)) ?? 'absent';
}
// Shipped by Debian's junit5, libguice-java and libjetty9-java (today pulled in by the build tools' packages).
const JUNIT = release('org/junit/junit-bom');
const GUICE = release('com/google/inject/guice-bom');
const JETTY = release('org/eclipse/jetty/jetty-bom');

/** Debian's real BOMs and their parents, copied into the test repository (the reader refuses links out). */
const DEBIAN_POMS = [
  `org/junit/junit-bom/${JUNIT}`,
  'org/junit/junit-parent/debian',
  `com/google/inject/guice-bom/${GUICE}`,
  'com/google/inject/guice-parent/debian',
  `org/eclipse/jetty/jetty-bom/${JETTY}`,
  'org/eclipse/jetty/jetty-project/9.x',
];

const ref = (name: string) => `$${'{'}${name}}`;
const pom = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
${body}
</project>
`;
const gav = (group: string, artifact: string, version = '1.0') =>
  `<groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>${version}</version>`;
const parent = (group: string, artifact: string, relativePath = '') =>
  `  <parent>${gav(group, artifact)}<relativePath>${relativePath}</relativePath></parent>`;
const properties = (entries: Record<string, string>) =>
  `  <properties>\n${Object.entries(entries)
    .map(([name, value]) => `    <${name}>${value}</${name}>`)
    .join('\n')}\n  </properties>`;
const managed = (...entries: string[]) =>
  `  <dependencyManagement>\n    <dependencies>\n${entries.join('\n')}\n    </dependencies>\n  </dependencyManagement>`;
const entry = (group: string, artifact: string, more = '') =>
  `      <dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId>${more}</dependency>`;
const version = (value: string) => `<version>${value}</version>`;
const bomImport = (group: string, artifact: string, at = '1.0') =>
  `      <dependency>\n        ${gav(group, artifact, at)}\n        <type>pom</type><scope>import</scope>\n      </dependency>`;
const repositoryPom = (artifact: string, body: string) =>
  pom(`  <groupId>rp</groupId>\n  <artifactId>${artifact}</artifactId>\n  <version>1.0</version>
  <packaging>pom</packaging>\n${body}`);
const PLUGIN =
  '  <build><plugins><plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.5.0</version></plugin></plugins></build>';

/** The generated repository POMs (group rp, version 1.0), by artifact. */
const REPOSITORY: Record<string, string> = {
  // The top of the reactor's parent chain: a property corp-parent's entry names, and an entry corp-bom also
  // manages (inherited management comes before every import).
  grand: repositoryPom(
    'grand',
    `${properties({ 'lang3.version': '3.12.0' })}
${managed(entry('commons-cli', 'commons-cli', version('1.5.0')))}`,
  ),
  // The reactor's parent: its slf4j.version is overridden by the reactor root (a parent's entry interpolates in
  // the child), commons-io is managed again by the root, and it imports corp-bom.
  'corp-parent': repositoryPom(
    'corp-parent',
    `${parent('rp', 'grand')}
${properties({ 'slf4j.version': 'debian' })}
${managed(
  entry('org.apache.commons', 'commons-lang3', version(ref('lang3.version'))),
  entry('org.slf4j', 'slf4j-api', version(ref('slf4j.version'))),
  entry('commons-io', 'commons-io', version('debian')),
  bomImport('rp', 'corp-bom'),
)}
${PLUGIN}`,
  ),
  'corp-bom': repositoryPom(
    'corp-bom',
    managed(
      entry('commons-logging', 'commons-logging', `${version('1.2')}<scope>test</scope>`),
      entry('commons-codec', 'commons-codec', version('debian')),
      entry('commons-cli', 'commons-cli', version('debian')),
    ),
  ),
  // bom-a's parent: the property bom-a's entry names (the importer defines it too) and an entry bom-a inherits
  // before the BOM it imports manages it again.
  'bom-parent': repositoryPom(
    'bom-parent',
    `${properties({ 'guava.version': '31.1-jre' })}
${managed(entry('com.thoughtworks.qdox', 'qdox', version('1.12.1')))}`,
  ),
  // bom-a manages guice with a classifier only: the plain guice is guice-bom's (Maven matches the classifier).
  'bom-a': repositoryPom(
    'bom-a',
    `${parent('rp', 'bom-parent')}
${managed(
  entry('com.google.guava', 'guava', version(ref('guava.version'))),
  entry('com.google.inject', 'guice', `${version('classified-only')}<classifier>no_aop</classifier>`),
  bomImport('rp', 'bom-b'),
)}`,
  ),
  'bom-b': repositoryPom(
    'bom-b',
    managed(
      entry('com.thoughtworks.qdox', 'qdox', version('2.0.3')),
      entry('com.google.guava', 'guava', version('debian')),
      entry('org.junit.jupiter', 'junit-jupiter-api', version(JUNIT)),
    ),
  ),
};

/** The direct dependencies app declares without a version. */
const USED = [
  ['com.google.guava', 'guava'],
  ['com.thoughtworks.qdox', 'qdox'],
  ['org.apache.commons', 'commons-lang3'],
  ['org.slf4j', 'slf4j-api'],
  ['commons-io', 'commons-io'],
  ['commons-codec', 'commons-codec'],
  ['commons-logging', 'commons-logging'],
  ['commons-cli', 'commons-cli'],
  ['org.junit.jupiter', 'junit-jupiter-api'],
  ['org.junit.platform', 'junit-platform-commons'],
  ['com.google.inject', 'guice'],
  ['org.eclipse.jetty', 'jetty-util'],
];

const TREE: Record<string, string> = {
  'settings.xml': '', // written once the repository's place is known
  'pom.xml': pom(`${parent('rp', 'corp-parent')}
  <groupId>tree</groupId>
  <artifactId>root</artifactId>
  <packaging>pom</packaging>
  <modules>
    <module>app</module>
  </modules>
${properties({ 'slf4j.version': '1.7.32' })}
${managed(entry('commons-io', 'commons-io', version('2.11.0')))}`),
  // app imports bom-a (from the repository), then Debian's real BOMs; it defines guava.version, which bom-a's
  // entry must not see.
  'app/pom.xml': pom(`${parent('tree', 'root', '../pom.xml')}
  <artifactId>app</artifactId>
${properties({ 'guava.version': 'debian' })}
${managed(
  bomImport('rp', 'bom-a'),
  bomImport('org.junit', 'junit-bom', JUNIT),
  bomImport('com.google.inject', 'guice-bom', GUICE),
  bomImport('org.eclipse.jetty', 'jetty-bom', JETTY),
)}
  <dependencies>
${USED.map(([group, artifact]) => entry(group as string, artifact as string)).join('\n')}
  </dependencies>`),
};

/**
 * Where each version must come from: the source, the BOMs it came through, and the tree's line to edit — its
 * file and what the line holds (a repository POM is not the tree's to edit: the import or the <parent> is).
 */
const FROM = (source: string, boms: string[], file: string, line: string) => ({ source, boms, file, line });
const PARENT_LINE = '<artifactId>corp-parent</artifactId>';
const EXPECTED: Record<string, ReturnType<typeof FROM>> = {
  'com.google.guava:guava': FROM('bom', ['rp:bom-a:1.0'], 'app/pom.xml', '<artifactId>bom-a</artifactId>'),
  'com.thoughtworks.qdox:qdox': FROM(
    'bom',
    ['rp:bom-a:1.0'],
    'app/pom.xml',
    '<artifactId>bom-a</artifactId>',
  ),
  'org.apache.commons:commons-lang3': FROM('parent', [], 'pom.xml', PARENT_LINE),
  'org.slf4j:slf4j-api': FROM('parent', [], 'pom.xml', '<slf4j.version>1.7.32<'),
  'commons-io:commons-io': FROM('parent', [], 'pom.xml', '>2.11.0<'),
  // jetty-bom's parent manages it too: app's imports come before its parent's (corp-bom).
  'commons-codec:commons-codec': FROM(
    'bom',
    [`org.eclipse.jetty:jetty-bom:${JETTY}`],
    'app/pom.xml',
    '<artifactId>jetty-bom</artifactId>',
  ),
  'commons-logging:commons-logging': FROM('bom', ['rp:corp-bom:1.0'], 'pom.xml', PARENT_LINE),
  'commons-cli:commons-cli': FROM('parent', [], 'pom.xml', PARENT_LINE),
  'org.junit.jupiter:junit-jupiter-api': FROM(
    'bom',
    ['rp:bom-a:1.0', 'rp:bom-b:1.0'],
    'app/pom.xml',
    '<artifactId>bom-a</artifactId>',
  ),
  // junit-bom writes its version as a property its parent, junit-parent, defines.
  'org.junit.platform:junit-platform-commons': FROM(
    'bom',
    [`org.junit:junit-bom:${JUNIT}`],
    'app/pom.xml',
    '<artifactId>junit-bom</artifactId>',
  ),
  'com.google.inject:guice': FROM(
    'bom',
    [`com.google.inject:guice-bom:${GUICE}`],
    'app/pom.xml',
    '<artifactId>guice-bom</artifactId>',
  ),
  'org.eclipse.jetty:jetty-util': FROM(
    'bom',
    [`org.eclipse.jetty:jetty-bom:${JETTY}`],
    'app/pom.xml',
    '<artifactId>jetty-bom</artifactId>',
  ),
};

/**
 * `debian` (Debian's repository) laid under `into` as links, except the folders on the way to `copied`, which
 * are real folders, and `copied` themselves, which are copies: Maven finds everything, writes only into real
 * folders of the test repository, and the reader reads real files.
 */
async function overlay(into: string, debian: string, copied: readonly string[]): Promise<void> {
  await mkdir(into, { recursive: true });
  const here = copied.filter((relative) => relative !== '');
  const below = new Map<string, string[]>();
  for (const relative of here) {
    const [first = '', ...rest] = relative.split('/');
    below.set(first, [...(below.get(first) ?? []), rest.join('/')]);
  }
  for (const name of await readdir(debian)) {
    const inner = below.get(name);
    const target = path.join(debian, name);
    if (inner === undefined) await symlink(target, path.join(into, name));
    else if (inner.includes('')) await cp(target, path.join(into, name), { recursive: true });
    else await overlay(path.join(into, name), target, inner);
  }
}

describe.skipIf(!mavenPresent)('Maven 3.8.7: versions from BOMs and parents in a local repository', () => {
  let root: string;
  let repository: string;
  let log: string;
  beforeAll(async () => {
    root = await scratch('oracle-maven-repository');
    repository = path.join(root, 'm2');
    await overlay(repository, DEBIAN_REPO, DEBIAN_POMS);
    await writeTree(
      path.join(repository, 'rp'),
      Object.fromEntries(
        Object.entries(REPOSITORY).map(([artifact, text]) => [`${artifact}/1.0/${artifact}-1.0.pom`, text]),
      ),
    );
    const tree = path.join(root, 'tree');
    await writeTree(tree, {
      ...TREE,
      'settings.xml': `<settings>\n  <localRepository>${repository}</localRepository>\n  <offline>true</offline>\n</settings>\n`,
    });
    log = await dependencyTreeLog(tree);
  }, 300_000);
  afterAll(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it("answers each version, scope, BOM and line to edit as Maven's, reading the repository", async () => {
    await using directory = await ConfinedDirectory.confinedTo(path.join(root, 'tree'));
    await using m2 = await ConfinedDirectory.confinedTo(repository);
    const workspace = await readWorkspace(directory, 'tree', {
      mavenRepository: { directory: m2, shown: 'm2' },
    });
    const declared = declaredDependencies(workspace, { system: 'maven' }).filter(
      (d) => d.configuration !== 'import' && d.module === 'tree:app',
    );
    const theirs = directDependencies(log).filter((t) => t.module === 'tree:app');
    expect(theirs.map((t) => t.coordinates).sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(declared.map((d) => d.coordinates).sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(workspace.problems).toEqual([]);
    for (const selected of theirs) {
      const key = selected.coordinates;
      const ourOwn = declared.find((d) => d.coordinates === key) as DeclaredDependency;
      const expected = EXPECTED[key] as ReturnType<typeof FROM>;
      expect(ourOwn.version.unknown, key).toBeUndefined();
      expect(ourOwn.version.spec, key).toBe(selected.version);
      expect(ourOwn.configuration, key).toBe(selected.scope);
      expect(ourOwn.version.source, key).toBe(expected.source);
      if (expected.boms.length > 0)
        expect(ourOwn.version.via, key).toMatch(new RegExp(`^${expected.boms.join(' → ')} m2/`));
      const edit = ourOwn.version.definedAt ?? ourOwn.at;
      expect(edit.file, key).toBe(expected.file);
      const line = (await readFile(path.join(root, 'tree', edit.file), 'utf8')).split('\n')[edit.line - 1];
      expect(line, key).toContain(expected.line);
    }
  });

  it("answers none of them without the repository but the reactor root's own entry, naming the parent", async () => {
    await using directory = await ConfinedDirectory.confinedTo(path.join(root, 'tree'));
    const workspace = await readWorkspace(directory, 'tree');
    const app = declaredDependencies(workspace, { system: 'maven' }).filter(
      (d) => d.configuration !== 'import' && d.module === 'tree:app',
    );
    expect(app.find((d) => d.coordinates === 'commons-io:commons-io')?.version.spec).toBe('2.11.0');
    for (const dependency of app.filter((d) => d.coordinates !== 'commons-io:commons-io')) {
      expect(dependency.version.spec, dependency.coordinates).toBeUndefined();
      expect(dependency.version.unknown).toContain('rp:corp-parent:1.0, which is not in the tree');
    }
  });
});
