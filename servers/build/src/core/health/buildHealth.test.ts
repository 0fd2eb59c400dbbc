// The build_health rules the CLI and tool tests do not reach, each on a realistic build that breaks it and on
// the same build mended: the finding, its file:line, and no finding once the build is fixed.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkspace } from '../workspace/readWorkspace.js';
import { checkBuildHealth, type HealthFinding } from './buildHealth.js';
import type { RuleId } from './ruleCatalog.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'build-health-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function findings(name: string, files: Record<string, string>): Promise<HealthFinding[]> {
  const root = path.join(scratch, name);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  await using directory = await ConfinedDirectory.confinedTo(root);
  return checkBuildHealth(await readWorkspace(directory, name));
}

const at = (found: HealthFinding[], rule: RuleId) =>
  found.filter((finding) => finding.rule === rule).map((finding) => `${finding.file}:${finding.line}`);

const wrapperProperties = (version: string) => `distributionBase=GRADLE_USER_HOME
distributionPath=wrapper/dists
distributionUrl=https\\://services.gradle.org/distributions/gradle-${version}-bin.zip
networkTimeout=10000
zipStoreBase=GRADLE_USER_HOME
zipStorePath=wrapper/dists
`;

const gradleBuild = (options: { properties: string; wrapper?: string; repositories: string }) => ({
  'settings.gradle': "rootProject.name = 'shop'\ninclude 'core', 'web'\n",
  'gradle.properties': options.properties,
  ...(options.wrapper === undefined
    ? {}
    : { 'gradle/wrapper/gradle-wrapper.properties': wrapperProperties(options.wrapper) }),
  'core/build.gradle': `plugins { id 'java-library' }

repositories {
  ${options.repositories}
}

dependencies {
  api 'org.slf4j:slf4j-api:2.0.13'
}
`,
  'web/build.gradle': `plugins { id 'java' }

dependencies {
  implementation project(':core')
}
`,
});

describe('build_health on a Gradle build', () => {
  let broken: HealthFinding[];
  let mended: HealthFinding[];
  let newWrapper: HealthFinding[];
  beforeAll(async () => {
    broken = await findings(
      'gradle-broken',
      gradleBuild({
        properties: 'org.gradle.jvmargs=-Xmx2g\norg.gradle.caching=true\n',
        wrapper: '7.6.4',
        repositories: 'mavenLocal()\n  mavenCentral()',
      }),
    );
    mended = await findings(
      'gradle-mended',
      gradleBuild({
        properties: 'org.gradle.jvmargs=-Xmx2g\norg.gradle.caching=true\norg.gradle.parallel=true\n',
        wrapper: '8.10.2',
        repositories: 'mavenCentral()',
      }),
    );
    newWrapper = await findings(
      'gradle-no-wrapper',
      gradleBuild({
        properties: 'org.gradle.caching=true\norg.gradle.parallel=false\n',
        repositories: 'mavenCentral()',
      }),
    );
  });

  it('gradle/parallel-off: a multi-project build without org.gradle.parallel=true, at gradle.properties', () => {
    expect(at(broken, 'gradle/parallel-off')).toEqual(['gradle.properties:1']);
    // Set to false is off too, and found at its own line.
    expect(at(newWrapper, 'gradle/parallel-off')).toEqual(['gradle.properties:2']);
    expect(at(mended, 'gradle/parallel-off')).toEqual([]);
  });

  it('gradle/old-wrapper: a wrapper pinning Gradle 7, at its distributionUrl line', () => {
    expect(at(broken, 'gradle/old-wrapper')).toEqual(['gradle/wrapper/gradle-wrapper.properties:3']);
    expect(broken.find((finding) => finding.rule === 'gradle/old-wrapper')?.message).toContain('7.6.4');
    expect(at(mended, 'gradle/old-wrapper')).toEqual([]);
    expect(at(broken, 'gradle/no-wrapper')).toEqual([]);
  });

  it('gradle/no-wrapper: no gradle/wrapper/gradle-wrapper.properties, at the settings file', () => {
    expect(at(newWrapper, 'gradle/no-wrapper')).toEqual(['settings.gradle:1']);
    expect(at(newWrapper, 'gradle/old-wrapper')).toEqual([]);
    expect(at(mended, 'gradle/no-wrapper')).toEqual([]);
  });

  it('repository/maven-local: mavenLocal() in a project, at its line and with the project', () => {
    expect(at(broken, 'repository/maven-local')).toEqual(['core/build.gradle:4']);
    expect(broken.find((finding) => finding.rule === 'repository/maven-local')?.module).toBe(':core');
    expect(at(mended, 'repository/maven-local')).toEqual([]);
  });
});

const mavenBuild = (options: { wrapper: boolean; version: string; pluginVersion: string }) => ({
  'pom.xml': `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>shop</groupId>
  <artifactId>shop</artifactId>
  <version>1.0.0</version>
  <dependencies>
    <dependency>
      <groupId>org.example</groupId>
      <artifactId>payments</artifactId>
      <version>${options.version}</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        ${options.pluginVersion}
      </plugin>
    </plugins>
  </build>
</project>
`,
  ...(options.wrapper
    ? {
        '.mvn/wrapper/maven-wrapper.properties':
          'wrapperVersion=3.3.2\ndistributionType=only-script\ndistributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.9/apache-maven-3.9.9-bin.zip\n',
      }
    : {}),
});

describe('build_health on a Maven build', () => {
  let broken: HealthFinding[];
  let mended: HealthFinding[];
  beforeAll(async () => {
    broken = await findings(
      'maven-broken',
      mavenBuild({ wrapper: false, version: '2.1-SNAPSHOT', pluginVersion: '' }),
    );
    mended = await findings(
      'maven-mended',
      mavenBuild({ wrapper: true, version: '2.1.0', pluginVersion: '<version>3.13.0</version>' }),
    );
  });

  it('maven/no-wrapper: no .mvn/wrapper/maven-wrapper.properties, at the root POM', () => {
    expect(at(broken, 'maven/no-wrapper')).toEqual(['pom.xml:1']);
    expect(at(mended, 'maven/no-wrapper')).toEqual([]);
  });

  it('dependency/snapshot-version: a SNAPSHOT dependency, at its declaration', () => {
    const found = broken.filter((finding) => finding.rule === 'dependency/snapshot-version');
    expect(found.map((finding) => finding.message)).toEqual([
      'org.example:payments:2.1-SNAPSHOT is a SNAPSHOT: depend on a release.',
    ]);
    expect(found[0]?.file).toBe('pom.xml');
    expect([8, 9, 10, 11]).toContain(found[0]?.line);
    expect(at(mended, 'dependency/snapshot-version')).toEqual([]);
  });

  it('maven/unpinned-plugin: a build plugin without <version>, at the plugin', () => {
    const found = broken.filter((finding) => finding.rule === 'maven/unpinned-plugin');
    expect(found.map((finding) => finding.message)).toEqual([
      expect.stringContaining('org.apache.maven.plugins:maven-compiler-plugin'),
    ]);
    expect([16, 17, 18]).toContain(found[0]?.line);
    expect(at(mended, 'maven/unpinned-plugin')).toEqual([]);
  });
});
