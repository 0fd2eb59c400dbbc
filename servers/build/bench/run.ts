// build_workspace and build_dependencies (static) on a generated 500-module Gradle build and a 200-module Maven
// reactor: cold (first read in the process: grammar load, walk, parse) and warm (unchanged files, answered from
// the cache after the walk), with peak RSS. `npx -y pnpm@10.34.9 --filter @groundwork/build bench`.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { declaredDependencies } from '../src/core/dependencies/declaredDependencies.js';
import { readWorkspace } from '../src/core/workspace/readWorkspace.js';

async function write(root: string, file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}

async function gradleBuild(root: string, modules: number): Promise<void> {
  const names = Array.from({ length: modules }, (_, index) => `module-${index}`);
  await write(
    root,
    'settings.gradle.kts',
    `rootProject.name = "bench"\n${names.map((name) => `include(":${name}")`).join('\n')}\n`,
  );
  await write(root, 'gradle.properties', 'org.gradle.caching=true\norg.gradle.parallel=true\n');
  await write(
    root,
    'gradle/libs.versions.toml',
    '[versions]\nguava = "33.0.0-jre"\n\n[libraries]\nguava = { module = "com.google.guava:guava", version.ref = "guava" }\n',
  );
  for (const [index, name] of names.entries()) {
    const previous = index === 0 ? '' : `    implementation(project(":module-${index - 1}"))\n`;
    await write(
      root,
      `${name}/build.gradle.kts`,
      `plugins { \`java-library\` }\n\ndependencies {\n${previous}    api(libs.guava)\n    implementation("org.slf4j:slf4j-api:2.0.9")\n    testImplementation("org.junit.jupiter:junit-jupiter:5.10.1")\n}\n`,
    );
    await write(
      root,
      `${name}/src/main/java/bench/M${index}.java`,
      `package bench; public class M${index} {}\n`,
    );
  }
}

async function mavenReactor(root: string, modules: number): Promise<void> {
  const names = Array.from({ length: modules }, (_, index) => `module-${index}`);
  await write(
    root,
    'pom.xml',
    `<project><modelVersion>4.0.0</modelVersion><groupId>bench</groupId><artifactId>parent</artifactId><version>1.0</version><packaging>pom</packaging>\n<properties><slf4j.version>2.0.9</slf4j.version></properties>\n<dependencyManagement><dependencies><dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version></dependency></dependencies></dependencyManagement>\n<modules>${names.map((name) => `<module>${name}</module>`).join('')}</modules></project>\n`,
  );
  for (const [index, name] of names.entries()) {
    const previous =
      index === 0
        ? ''
        : `<dependency><groupId>bench</groupId><artifactId>module-${index - 1}</artifactId><version>1.0</version></dependency>`;
    await write(
      root,
      `${name}/pom.xml`,
      `<project><modelVersion>4.0.0</modelVersion><parent><groupId>bench</groupId><artifactId>parent</artifactId><version>1.0</version></parent><artifactId>${name}</artifactId>\n<dependencies>${previous}<dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>\${slf4j.version}</version></dependency><dependency><groupId>junit</groupId><artifactId>junit</artifactId><scope>test</scope></dependency></dependencies></project>\n`,
    );
  }
}

async function measure(label: string, root: string): Promise<void> {
  await using directory = await ConfinedDirectory.confinedTo(root);
  let started = performance.now();
  const cold = await readWorkspace(directory, 'bench');
  const coldMs = performance.now() - started;
  const warm: number[] = [];
  for (let run = 0; run < 5; run++) {
    started = performance.now();
    await readWorkspace(directory, 'bench');
    warm.push(performance.now() - started);
  }
  started = performance.now();
  const dependencies = declaredDependencies(cold, {});
  const dependenciesMs = performance.now() - started + coldMs;
  const modules = cold.systems.reduce((sum, system) => sum + system.modules.length, 0);
  warm.sort((a, b) => a - b);
  process.stdout.write(
    `${label}: ${modules} modules, ${dependencies.length} declared dependencies; build_workspace cold ${coldMs.toFixed(0)} ms, warm median ${(warm[2] as number).toFixed(1)} ms; build_dependencies (cold read included) ${dependenciesMs.toFixed(0)} ms; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB\n`,
  );
}

const scratch = await mkdtemp(path.join(tmpdir(), 'build-bench-'));
try {
  await gradleBuild(path.join(scratch, 'gradle'), 500);
  await mavenReactor(path.join(scratch, 'maven'), 200);
  await measure('Gradle, 500 modules (Kotlin DSL)', path.join(scratch, 'gradle'));
  await measure('Maven, 200-module reactor', path.join(scratch, 'maven'));
} finally {
  await rm(scratch, { recursive: true, force: true });
}
