// Real multi-module builds the run tests create and build with the real tools: the same two modules and the
// same declarations for Gradle and Maven, against Debian's Maven repository (/usr/share/maven-repo), where
// qdox exists at 1.12.1 and 2.0.3. `app` declares qdox 1.12.1 and depends on `core`, which declares 2.0.3:
// Gradle picks the highest (2.0.3), Maven the nearest (1.12.1).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { type Resolution, resolveWithBuildTool } from '../../src/core/resolve/resolveWithBuildTool.js';
import type { BuildPolicy, RunnableSystem } from '../../src/core/run/buildCommand.js';
import type { BuildRun } from '../../src/core/run/runBuild.js';
import type { RunLogs } from '../../src/core/run/runLogs.js';

export const DEBIAN_REPO = '/usr/share/maven-repo';

/** Whether `command` runs here; under CI a missing tool fails the tests instead of skipping them. */
export function toolPresent(command: string, args: string[] = ['--version']): boolean {
  const ran = spawnSync(command, args, { stdio: 'ignore', timeout: 120_000 });
  return ran.status === 0 || Boolean(process.env.CI);
}

export async function scratch(name: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `build-run-${name}-`));
}

/** How the tests' runs are controlled: no wrapper, a deadline only a wedged tool reaches, never cancelled. */
export function runControl(logs: RunLogs<BuildRun>): {
  policy: BuildPolicy;
  logs: RunLogs<BuildRun>;
  timeoutMs: number;
  signal: AbortSignal;
} {
  return {
    policy: { allowWrapper: false },
    logs,
    timeoutMs: 300_000,
    signal: new AbortController().signal,
  };
}

/** The build tool's resolved graph of the build at `root`, offline, as build_dependencies resolve asks it. */
export async function resolveIn(
  root: string,
  system: RunnableSystem,
  logs: RunLogs<BuildRun>,
): Promise<Resolution> {
  await using dir = await ConfinedDirectory.confinedTo(root);
  return await resolveWithBuildTool({
    root: dir,
    system,
    network: false,
    useWrapper: false,
    ...runControl(logs),
  });
}

export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
}

export const CORE_SOURCE = `package demo;

public class Core {
  public static int value() { return 1; }
}
`;

/** Line 8 holds the failing assertion. */
export const CORE_TEST = `package demo;

import org.junit.Assert;
import org.junit.Test;

public class CoreTest {
  @Test public void passes() { Assert.assertEquals(1, Core.value()); }
  @Test public void fails() { Assert.assertEquals("value", 2, Core.value()); }
}
`;
export const FAILING_TEST_LINE = 8;

export const APP_SOURCE = `package demo;

public class App {
  int x = Core.value();
}
`;

/** `Core.missing()` does not exist: javac reports line 4, column 15 (the dot before the name). */
export const APP_BROKEN = `package demo;

public class App {
  int x = Core.missing();
}
`;

export function gradleBuild(): Record<string, string> {
  return {
    'settings.gradle': `rootProject.name = 'demo'
include 'core', 'app'
buildCache { local(DirectoryBuildCache) { directory = new File(rootDir, '.build-cache') } }
`,
    'gradle.properties': 'org.gradle.caching=true\n',
    'build.gradle': `subprojects {
  apply plugin: 'java'
  sourceCompatibility = '1.8'
  targetCompatibility = '1.8'
  repositories { maven { url 'file://${DEBIAN_REPO}' } }
}
`,
    'core/build.gradle': `dependencies {
  compile 'com.thoughtworks.qdox:qdox:2.0.3'
  testCompile 'junit:junit:4.13.2'
}
`,
    'app/build.gradle': `dependencies {
  compile project(':core')
  compile 'com.thoughtworks.qdox:qdox:1.12.1'
}
`,
    'core/src/main/java/demo/Core.java': CORE_SOURCE,
    'core/src/test/java/demo/CoreTest.java': CORE_TEST,
    'app/src/main/java/demo/App.java': APP_SOURCE,
  };
}

/** The plugin versions Debian ships (bookworm); `mvn -o` resolves nothing else. */
const MAVEN_PLUGINS = [
  ['maven-clean-plugin', '3.2.0'],
  ['maven-resources-plugin', '3.3.0'],
  ['maven-compiler-plugin', '3.10.1'],
  ['maven-surefire-plugin', '2.22.3'],
  ['maven-jar-plugin', '3.3.0'],
  ['maven-install-plugin', '3.1.0'],
  ['maven-dependency-plugin', '3.5.0'],
]
  .map(
    ([artifact, version]) =>
      `<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>${artifact}</artifactId><version>${version}</version></plugin>`,
  )
  .join('\n      ');

export function mavenBuild(): Record<string, string> {
  const module = (
    artifact: string,
    dependencies: string,
  ) => `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>demo</groupId><artifactId>parent</artifactId><version>1</version></parent>
  <artifactId>${artifact}</artifactId>
  <dependencies>
    ${dependencies}
  </dependencies>
</project>
`;
  return {
    'pom.xml': `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId>
  <artifactId>parent</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <modules>
    <module>app</module>
    <module>core</module>
  </modules>
  <properties>
    <maven.compiler.source>1.8</maven.compiler.source>
    <maven.compiler.target>1.8</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <build>
    <plugins>
      ${MAVEN_PLUGINS}
    </plugins>
  </build>
</project>
`,
    'core/pom.xml': module(
      'core',
      `<dependency><groupId>com.thoughtworks.qdox</groupId><artifactId>qdox</artifactId><version>2.0.3</version></dependency>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>`,
    ),
    'app/pom.xml': module(
      'app',
      `<dependency><groupId>demo</groupId><artifactId>core</artifactId><version>1</version></dependency>
    <dependency><groupId>com.thoughtworks.qdox</groupId><artifactId>qdox</artifactId><version>1.12.1</version></dependency>`,
    ),
    'core/src/main/java/demo/Core.java': CORE_SOURCE,
    'core/src/test/java/demo/CoreTest.java': CORE_TEST,
    'app/src/main/java/demo/App.java': APP_SOURCE,
  };
}

/** A Maven settings file that resolves from Debian's repository only, offline. */
export const MAVEN_SETTINGS = `<settings>
  <localRepository>${DEBIAN_REPO}</localRepository>
  <offline>true</offline>
</settings>
`;

/** Gradle's --profile report: each task's Result column ('' and 'Did No Work' are executed tasks). */
export function profileResults(html: string): Map<string, string> {
  const results = new Map<string, string>();
  const table = html.slice(html.indexOf('id="tab3"'));
  for (const row of table.matchAll(
    /<tr>\s*<td class="indentPath">([^<]+)<\/td>\s*<td class="numeric">[^<]*<\/td>\s*<td>([^<]*)<\/td>/g,
  )) {
    results.set(row[1] as string, row[2] as string);
  }
  return results;
}
