// Maven Surefire, offline against Debian's own repository (/usr/share/maven-repo: maven-debian-helper's
// settings, junit4, libsurefire-java, the compiler and resources plugins), with rerunFailingTestsCount.
// The oracle is Surefire's printed `Tests run: …, Flakes: …` and its failure lines.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectChanges } from './runChanges.js';
import {
  available,
  expectJUnitReadAlike,
  expectSummary,
  failureNamed,
  failuresOf,
  type Ran,
  runInBackground,
  type Server,
  scratch,
  startServer,
  writeProject,
} from './runnerHarness.js';

const SETTINGS = '/etc/maven/settings-debian.xml';
const present = available('mvn', ['--version']) && (existsSync(SETTINGS) || Boolean(process.env.CI));

// The plugin versions Debian ships (bookworm); `mvn -o` resolves nothing else.
const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId>
  <artifactId>demo</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.source>11</maven.compiler.source>
    <maven.compiler.target>11</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.x</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version>
        <configuration><rerunFailingTestsCount>2</rerunFailingTestsCount></configuration>
      </plugin>
    </plugins>
  </build>
</project>
`;

function project(version: 1 | 2): Record<string, string> {
  return {
    'pom.xml': POM,
    'src/test/java/demo/CalcTest.java': `package demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Ignore;
import org.junit.Test;

public class CalcTest {
  static int attempts = 0;

  @Test public void passes() { assertEquals(5, 2 + 3); }

  @Test public void fails() { assertEquals("sum", 5, 2 + 2); }

  @Test public void prüftRabatt() { assertEquals("Rabatt", 10, 5 + 4); }

  @Test public void errors() { throw new IllegalStateException("caf\\u00e9 boom"); }

  @Test public void flaky() { attempts++; assertTrue("first attempt fails", attempts > 1); }

  @Ignore("later") @Test public void skipped() {}

  @Test public void fixedLater() { assertEquals(${version === 1 ? 3 : 2}, 1 + 1); }

  @Test public void brokenLater() { assertEquals(${version === 1 ? 4 : 5}, 2 + 2); }

  ${version === 1 ? '' : '@Ignore("quarantined") '}@Test public void skippedLater() { assertEquals(1, 0); }

  @Test public void ${version === 1 ? 'removed' : 'added'}Later() {}
}
`,
  };
}

let root: string;
let server: Server;
const ran: Ran[] = [];

beforeAll(async () => {
  if (!present) return;
  root = await scratch('surefire');
  // Each version in a folder of its own, both built at once (Surefire's ids hold no folder).
  const versions = await Promise.all(
    ([1, 2] as const).map(async (version) => {
      const folder = path.join(root, `v${version}`);
      await writeProject(folder, project(version));
      return runInBackground(
        'mvn',
        ['-o', '-B', '-s', SETTINGS, '-Dmaven.repo.local=/usr/share/maven-repo', 'test'],
        folder,
      );
    }),
  );
  ran.push(...versions);
  server = await startServer(root);
}, 240_000);
afterAll(async () => {
  await server?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** `Tests run: 9, Failures: 3, Errors: 1, Skipped: 1, Flakes: 1` (the last such line is the total). */
function printedCounts(printed: string) {
  const line = [
    ...printed.matchAll(
      /Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: (\d+))?$/gm,
    ),
  ].pop();
  const number = (index: number) => Number(line?.[index] ?? 0);
  const [total, failed, errored, skipped] = [number(1), number(2), number(3), number(4)];
  return {
    counts: { total, passed: total - failed - errored - skipped, failed, errored, skipped },
    flaky: number(5),
  };
}

describe.skipIf(!present)('Maven Surefire offline, against what Surefire printed', () => {
  it('reads the JUnit the runner wrote with the fast markup scanner, exactly as saxes reads it', async () => {
    expect(await expectJUnitReadAlike(root)).toBeGreaterThan(0);
  });

  it('counts what Surefire counted, reruns folded and the flake recognised', async () => {
    for (const version of [1, 2]) {
      const printed = (ran[version - 1] as Ran).printed;
      expect(printed).toMatch(/BUILD FAILURE/);
      const { counts, flaky } = printedCounts(printed);
      const summary = await expectSummary(server, `v${version}/target/surefire-reports`, counts);
      expect(summary.flaky).toBe(flaky);
      expect(flaky).toBe(1);
    }
  });

  it("shows Surefire's message and the line it printed for every failure", async () => {
    const printed = (ran[0] as Ran).printed;
    const failures = await failuresOf(server, 'v1/target/surefire-reports');
    for (const failure of failures) {
      // `Run 1: CalcTest.fails:14 sum expected:<5> but was:<4>`
      const pointed = new RegExp(`CalcTest\\.${failure.name}:(\\d+)`).exec(printed)?.[1];
      expect(pointed, failure.name).toBeDefined();
      expect(printed, failure.name).toContain(failure.message ?? '');
      const context = await server.call('failure_context', {
        path: 'v1/target/surefire-reports',
        id: failure.id,
      });
      expect((context.sources as { file: string; line: number }[])[0], failure.name).toMatchObject({
        file: 'v1/src/test/java/demo/CalcTest.java',
        line: Number(pointed),
      });
      expect(context.attempts, failure.name).toBe(3);
    }
    expect(failureNamed(failures, 'errors')).toMatchObject({ status: 'errored', message: 'café boom' });
    // A method named in Unicode (Java allows it) is found in the source like any other.
    expect(failures.map((failure) => failure.name)).toContain('prüftRabatt');
  });

  it('sees the changes between the two runs', async () => {
    await expectChanges(server, 'v1/target/surefire-reports', 'v2/target/surefire-reports', {
      new_failures: ['brokenLater'],
      fixed: ['fixedLater'],
      newly_skipped: ['skippedLater'],
      new_tests: ['addedLater'],
      removed_tests: ['removedLater'],
    });
  });
});
