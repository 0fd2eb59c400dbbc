// BOMs that are POMs of the tree, against Maven 3.8.7 itself: every version build_dependencies answers
// statically for a dependency whose version an imported BOM manages must be the one `mvn -o dependency:tree`
// selects, with the line to edit and the BOM it came through. The reactor is written so each precedence rule
// decides a version that a wrong rule would get different (every candidate is another version Debian's
// repository holds): a property in a BOM resolved in the BOM's own lineage (the importer defines it too), a BOM
// that inherits management and a property from its parent, two BOMs managing the same artifact (the first
// import wins; a child's import comes before its parent's), a BOM importing a BOM (its own entry first), a
// managed scope from a BOM, and the importer's own <dependencyManagement> entry beating every BOM.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredDependencies } from '../../src/core/dependencies/declaredDependencies.js';
import type { DeclaredDependency } from '../../src/core/workspace/model.js';
import { readWorkspace } from '../../src/core/workspace/readWorkspace.js';
import { MAVEN_SETTINGS, scratch, toolPresent, writeTree } from '../run/builds.js';
import { dependencyTreeLog, directDependencies } from './mavenTgf.js';

const mavenPresent = toolPresent('mvn');

const ref = (name: string) => `$${'{'}${name}}`;
const pom = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
${body}
</project>
`;
const coordinates = (artifact: string) =>
  `  <groupId>boms</groupId>\n  <artifactId>${artifact}</artifactId>\n  <version>1.0</version>`;
const parent = (artifact: string, relativePath: string) =>
  `  <parent><groupId>boms</groupId><artifactId>${artifact}</artifactId><version>1.0</version><relativePath>${relativePath}</relativePath></parent>`;
const managed = (entries: string) =>
  `  <dependencyManagement>\n    <dependencies>\n${entries}\n    </dependencies>\n  </dependencyManagement>`;
const entry = (group: string, artifact: string, more = '') =>
  `      <dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId>${more}</dependency>`;
const version = (value: string) => `<version>${value}</version>`;
const bomImport = (artifact: string, at = '1.0') =>
  entry('boms', artifact, `${version(at)}<type>pom</type><scope>import</scope>`);
// Offline, the dependency plugin's version must be one in Debian's repository: every POM without a parent here
// names it.
const PLUGIN =
  '  <build><plugins><plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.5.0</version></plugin></plugins></build>';

/** The direct dependencies every module declares without a version (a BOM or the importer manages each). */
const USED = [
  ['com.google.guava', 'guava'],
  ['org.apache.commons', 'commons-lang3'],
  ['org.slf4j', 'slf4j-api'],
  ['com.thoughtworks.qdox', 'qdox'],
  ['commons-io', 'commons-io'],
  ['commons-codec', 'commons-codec'],
  ['commons-cli', 'commons-cli'],
];
const uses = () =>
  `  <dependencies>\n${USED.map(([group, artifact]) => entry(group as string, artifact as string)).join('\n')}\n  </dependencies>`;

const BUILD: Record<string, string> = {
  'settings.xml': MAVEN_SETTINGS,
  // The reactor's parent imports bom-a (its version through project.version), then bom-b; it defines the
  // properties bom-a uses at other versions, and manages commons-io itself.
  'pom.xml': pom(`${coordinates('root')}
  <packaging>pom</packaging>
  <modules>
    <module>bom-parent</module>
    <module>bom-a</module>
    <module>bom-b</module>
    <module>bom-c</module>
    <module>libs</module>
    <module>app</module>
  </modules>
  <properties>
    <guava.version>debian</guava.version>
    <lang3.version>debian</lang3.version>
  </properties>
${managed(`${bomImport('bom-a', ref('project.version'))}
${bomImport('bom-b')}
${entry('commons-io', 'commons-io', version('2.11.0'))}`)}
${PLUGIN}`),
  // bom-a's parent: a property bom-a's entry names and an entry bom-a inherits.
  'bom-parent/pom.xml': pom(`${coordinates('bom-parent')}
  <packaging>pom</packaging>
  <properties>
    <lang3.version>3.12.0</lang3.version>
  </properties>
${managed(entry('org.slf4j', 'slf4j-api', version('1.7.32')))}
${PLUGIN}`),
  'bom-a/pom.xml': pom(`${parent('bom-parent', '../bom-parent/pom.xml')}
  <artifactId>bom-a</artifactId>
  <packaging>pom</packaging>
  <properties>
    <guava.version>31.1-jre</guava.version>
  </properties>
${managed(`${entry('com.google.guava', 'guava', version(ref('guava.version')))}
${entry('org.apache.commons', 'commons-lang3', version(ref('lang3.version')))}
${entry('com.thoughtworks.qdox', 'qdox', version('1.12.1'))}
${entry('commons-io', 'commons-io', version('debian'))}`)}`),
  // bom-b manages qdox too (another version), commons-cli before the BOM it imports does, and imports bom-c.
  'bom-b/pom.xml': pom(`${coordinates('bom-b')}
  <packaging>pom</packaging>
${managed(`${entry('com.thoughtworks.qdox', 'qdox', version('2.0.3'))}
${entry('commons-io', 'commons-io', version('debian'))}
${entry('commons-cli', 'commons-cli', version('1.5.0'))}
${bomImport('bom-c')}`)}
${PLUGIN}`),
  'bom-c/pom.xml': pom(`${coordinates('bom-c')}
  <packaging>pom</packaging>
${managed(`${entry('commons-codec', 'commons-codec', `${version('1.15')}<scope>test</scope>`)}
${entry('commons-cli', 'commons-cli', version('debian'))}
${entry('com.google.guava', 'guava', version('debian'))}`)}
${PLUGIN}`),
  // libs imports bom-b itself: for its modules bom-b comes before the parent's bom-a.
  'libs/pom.xml': pom(`${parent('root', '../pom.xml')}
  <artifactId>libs</artifactId>
  <packaging>pom</packaging>
  <modules>
    <module>core</module>
  </modules>
${managed(bomImport('bom-b'))}`),
  'libs/core/pom.xml': pom(`${parent('libs', '../pom.xml')}
  <artifactId>core</artifactId>
${uses()}`),
  'app/pom.xml': pom(`${parent('root', '../pom.xml')}
  <artifactId>app</artifactId>
${uses()}`),
};

/** Where each version must come from: the source build_dependencies names, the file to edit, the BOMs. */
const FROM = (source: string, file: string, boms: string[] = []) => ({ source, file, boms });
const EXPECTED: Record<string, ReturnType<typeof FROM>> = {
  'boms:app com.google.guava:guava': FROM('bom', 'bom-a/pom.xml', ['boms:bom-a:1.0']),
  'boms:app org.apache.commons:commons-lang3': FROM('bom', 'bom-parent/pom.xml', ['boms:bom-a:1.0']),
  'boms:app org.slf4j:slf4j-api': FROM('bom', 'bom-parent/pom.xml', ['boms:bom-a:1.0']),
  'boms:app com.thoughtworks.qdox:qdox': FROM('bom', 'bom-a/pom.xml', ['boms:bom-a:1.0']),
  'boms:app commons-io:commons-io': FROM('parent', 'pom.xml'),
  'boms:app commons-codec:commons-codec': FROM('bom', 'bom-c/pom.xml', ['boms:bom-b:1.0', 'boms:bom-c:1.0']),
  'boms:app commons-cli:commons-cli': FROM('bom', 'bom-b/pom.xml', ['boms:bom-b:1.0']),
  'boms:core com.google.guava:guava': FROM('bom', 'bom-c/pom.xml', ['boms:bom-b:1.0', 'boms:bom-c:1.0']),
  'boms:core org.apache.commons:commons-lang3': FROM('bom', 'bom-parent/pom.xml', ['boms:bom-a:1.0']),
  'boms:core org.slf4j:slf4j-api': FROM('bom', 'bom-parent/pom.xml', ['boms:bom-a:1.0']),
  'boms:core com.thoughtworks.qdox:qdox': FROM('bom', 'bom-b/pom.xml', ['boms:bom-b:1.0']),
  'boms:core commons-io:commons-io': FROM('parent', 'pom.xml'),
  'boms:core commons-codec:commons-codec': FROM('bom', 'bom-c/pom.xml', ['boms:bom-b:1.0', 'boms:bom-c:1.0']),
  'boms:core commons-cli:commons-cli': FROM('bom', 'bom-b/pom.xml', ['boms:bom-b:1.0']),
};

describe.skipIf(!mavenPresent)('Maven 3.8.7: versions from BOMs in the tree', () => {
  let root: string;
  let log: string;
  beforeAll(async () => {
    root = await scratch('oracle-maven-boms');
    await writeTree(root, BUILD);
    log = await dependencyTreeLog(root);
  }, 300_000);
  afterAll(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  it("answers each BOM-managed version, scope, BOM and line to edit as Maven's", async () => {
    await using directory = await ConfinedDirectory.confinedTo(root);
    const workspace = await readWorkspace(directory, 'boms');
    const declared = declaredDependencies(workspace, { system: 'maven' }).filter(
      (d) => d.configuration !== 'import',
    );
    const theirs = directDependencies(log);
    expect(theirs.map((t) => `${t.module} ${t.coordinates}`).sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(declared.map((d) => `${d.module} ${d.coordinates}`).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const selected of theirs) {
      const key = `${selected.module} ${selected.coordinates}`;
      const ourOwn = declared.find((d) => `${d.module} ${d.coordinates}` === key) as DeclaredDependency;
      const expected = EXPECTED[key] as ReturnType<typeof FROM>;
      expect(ourOwn.version.unknown, key).toBeUndefined();
      expect(ourOwn.version.spec, key).toBe(selected.version);
      expect(ourOwn.configuration, key).toBe(selected.scope);
      expect(ourOwn.version.source, key).toBe(expected.source);
      if (expected.boms.length > 0)
        expect(ourOwn.version.via, key).toMatch(new RegExp(`^${expected.boms.join(' → ')} `));
      const edit = ourOwn.version.definedAt ?? ourOwn.at;
      expect(edit.file, key).toBe(expected.file);
      const line = (await readFile(path.join(root, edit.file), 'utf8')).split('\n')[edit.line - 1];
      expect(line, key).toContain(`>${selected.version}<`);
    }
  });
});
