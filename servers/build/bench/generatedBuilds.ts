// The builds the bench generates (bench/run.ts, bench/firstCallPairs.ts): a 500-module Gradle build (Groovy DSL,
// so Debian's Gradle 4.4.1 runs it) and a 200-module Maven reactor.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const GRADLE_MODULES = 500;
export const MAVEN_MODULES = 200;

async function write(root: string, file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}

/** Every module depends on the one before it, an external library by literal and one by property. */
export async function gradleBuild(root: string): Promise<void> {
  const names = Array.from({ length: GRADLE_MODULES }, (_, index) => `module-${index}`);
  await write(
    root,
    'settings.gradle',
    `rootProject.name = 'bench'\n${names.map((name) => `include ':${name}'`).join('\n')}\n`,
  );
  await write(
    root,
    'gradle.properties',
    'org.gradle.caching=true\norg.gradle.parallel=true\nslf4jVersion=2.0.9\n',
  );
  for (const [index, name] of names.entries()) {
    const previous = index === 0 ? '' : `    implementation project(':module-${index - 1}')\n`;
    await write(
      root,
      `${name}/build.gradle`,
      `apply plugin: 'java-library'\n\ndependencies {\n${previous}    api 'com.google.guava:guava:33.0.0-jre'\n    implementation "org.slf4j:slf4j-api:\${slf4jVersion}"\n    testImplementation 'junit:junit:4.13.2'\n}\n`,
    );
    await write(
      root,
      `${name}/src/main/java/bench/M${index}.java`,
      `package bench; public class M${index} {}\n`,
    );
  }
}

export async function mavenReactor(root: string): Promise<void> {
  const names = Array.from({ length: MAVEN_MODULES }, (_, index) => `module-${index}`);
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
