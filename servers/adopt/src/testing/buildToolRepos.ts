// Minimal repositories of each build tool adopt_repo wires a guard into.
import type { FixtureFiles } from './fixtureRepo.js';

export const nodeRepo: FixtureFiles = {
  'package.json': `${JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { build: 'tsc', test: 'node --test' } }, null, 2)}\n`,
  'package-lock.json': '{ "lockfileVersion": 3 }\n',
  'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
  'src/index.ts': 'export const answer = 42;\n',
  'test/index.test.js': "require('node:test')('works', () => {});\n",
};

export const mavenRepo: FixtureFiles = {
  'pom.xml': `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>demo</artifactId>
  <version>1.0.0</version>
  <build>
    <pluginManagement>
      <plugins>
        <plugin>
          <artifactId>maven-surefire-plugin</artifactId>
          <version>3.5.2</version>
        </plugin>
      </plugins>
    </pluginManagement>
  </build>
</project>
`,
  'src/main/java/com/example/App.java': 'package com.example;\n\npublic class App {}\n',
};

export const gradleRepo: FixtureFiles = {
  'settings.gradle.kts': 'rootProject.name = "demo"\n',
  'build.gradle.kts': 'plugins {\n    kotlin("jvm") version "2.1.0"\n}\n',
  'src/main/kotlin/App.kt': 'fun main() {}\n',
};

export const plainRepo: FixtureFiles = {
  'README.md': '# Plain\n\nNo build tool here.\n',
  'bin/run.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
};
