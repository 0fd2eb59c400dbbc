// build_why with resolve: true over the wire, on the same declarations in Gradle 4.4.1 and Maven 3.8.7 (app
// declares qdox 1.12.1 and depends on core, which declares 2.0.3): every path to qdox, the version selected
// and the rule — Gradle's conflict resolution takes the highest (2.0.3, asked for by core), Maven the nearest
// (1.12.1, app's own) — and the declaration that decided, each checked against the tool's own report of the
// same question: `gradle dependencyInsight` and `mvn dependency:tree -Dverbose -Dincludes`.
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradleBuild, MAVEN_SETTINGS, mavenBuild, scratch, toolPresent, writeTree } from './builds.js';

const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const QDOX = 'com.thoughtworks.qdox:qdox';

interface Why {
  module: string;
  configuration: string;
  selected?: string;
  reason: string;
  rule: string;
  paths: string[][];
  decided_by?: string[];
  declaration?: { module: string; at: { file: string; line: number } };
  edit?: { file: string; line: number };
}

/** A path as both sides can say it: the modules between the asking one and qdox, and the version asked. */
type Route = { via: string[]; requested: string };

async function why(root: string, args: Record<string, unknown>): Promise<Why[]> {
  let session: StdioSession | undefined;
  try {
    session = await connectOverStdio({
      bin,
      clientName: 'build-why',
      args: ['--allowed-dir', root, '--allow-build-execution'],
    });
    const result = await session.call(
      'build_why',
      { path: root, dependency: 'qdox', resolve: true, ...args },
      { timeoutMs: 300_000 },
    );
    expect(result.isError, result.text).toBe(false);
    return (JSON.parse(result.text) as { resolved: Why[] }).resolved;
  } finally {
    await session?.close();
  }
}

/** Our path (`:app`, `:core`, `g:a:1.12.1 -> 2.0.3`) as a route: the steps between, without versions. */
function routeOf(path: string[]): Route {
  const last = (path.at(-1) as string).split(' -> ')[0] as string;
  const key = (step: string) => (step.startsWith(':') ? step : step.split(':').slice(0, 2).join(':'));
  return { via: path.slice(1, -1).map(key), requested: last.slice(last.lastIndexOf(':') + 1) };
}

const sorted = (routes: Route[]) =>
  [...routes].sort((a, b) => `${a.via}${a.requested}`.localeCompare(`${b.via}${b.requested}`));

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!toolPresent('gradle'))(
  'build_why resolve on Gradle, against `gradle dependencyInsight`',
  () => {
    let root: string;
    beforeAll(async () => {
      root = await scratch('why-gradle');
      roots.push(root);
      await writeTree(root, gradleBuild());
    });

    it('gives the highest version by conflict resolution, both paths, and core’s declaration to edit', {
      timeout: 600_000,
    }, async () => {
      const answers = await why(root, { module: ':app', configuration: 'compileClasspath' });
      expect(answers).toHaveLength(1);
      const [app] = answers as [Why];
      expect(app).toMatchObject({
        module: ':app',
        configuration: 'compileClasspath',
        selected: '2.0.3',
        rule: 'highest version',
        decided_by: [':app', ':core', `${QDOX}:2.0.3`],
        declaration: { module: ':core', at: { file: 'core/build.gradle', line: 2 } },
        edit: { file: 'core/build.gradle', line: 2 },
      });

      // The oracle: each section of dependencyInsight is one requested version (`g:a:v` or `g:a:v -> w`, the
      // selected one with Gradle's reason in parentheses), and the tree below it names the projects it came by.
      const insight = spawnSync(
        'gradle',
        [
          '--offline',
          '--no-daemon',
          '-q',
          ':app:dependencyInsight',
          '--dependency',
          'qdox',
          '--configuration',
          'compileClasspath',
        ],
        { cwd: root, encoding: 'utf8', timeout: 300_000 },
      );
      expect(insight.status, insight.stderr).toBe(0);
      const routes: Route[] = [];
      let reason: string | undefined;
      let selected: string | undefined;
      for (const section of insight.stdout.split(/\n\s*\n/)) {
        const header = /^com\.thoughtworks\.qdox:qdox:([\w.-]+)(?: -> ([\w.-]+))?(?: \(([^)]+)\))?/m.exec(
          section,
        );
        if (header === null) continue;
        if (header[2] === undefined) {
          selected = header[1];
          reason = header[3];
        }
        routes.push({
          via: [...section.matchAll(/--- project (:[\w:-]+)/g)].map((match) => match[1] as string),
          requested: header[1] as string,
        });
      }
      expect(selected).toBe(app.selected);
      expect(reason).toBe(app.reason);
      expect(sorted(app.paths.map(routeOf))).toEqual(sorted(routes));
    });
  },
);

describe.skipIf(!toolPresent('mvn'))(
  'build_why resolve on Maven, against `mvn dependency:tree -Dverbose`',
  () => {
    let root: string;
    beforeAll(async () => {
      root = await scratch('why-maven');
      roots.push(root);
      await writeTree(root, {
        ...mavenBuild(),
        'settings.xml': MAVEN_SETTINGS,
        '.mvn/maven.config': '-s settings.xml\n',
      });
    });

    it('gives the nearest declaration, the omitted farther one, and app’s own declaration to edit', {
      timeout: 600_000,
    }, async () => {
      const answers = await why(root, { module: 'demo:app' });
      expect(answers).toHaveLength(1);
      const [app] = answers as [Why];
      expect(app).toMatchObject({
        module: 'demo:app',
        selected: '1.12.1',
        rule: 'nearest declaration',
        decided_by: ['demo:app', `${QDOX}:1.12.1`],
        declaration: { module: 'demo:app', at: { file: 'app/pom.xml' } },
      });

      // The oracle: Maven's own verbose tree for qdox alone, read here by indentation (three characters a level).
      const tree = spawnSync(
        'mvn',
        ['-o', '-B', '-s', 'settings.xml', 'dependency:tree', '-Dverbose', `-Dincludes=${QDOX}`],
        { cwd: root, encoding: 'utf8', timeout: 300_000 },
      );
      expect(tree.status, tree.stdout.slice(-2_000)).toBe(0);
      const lines = tree.stdout.split('\n').map((line) => line.replace(/^\[INFO\] /, ''));
      const start = lines.findIndex((line) => line.startsWith('demo:app:jar:1'));
      expect(start).toBeGreaterThan(-1);
      const routes: Route[] = [];
      let kept: string | undefined;
      const stack: string[] = [];
      for (const line of lines.slice(start + 1)) {
        const node = /^([| ]*)[+\\]- (\(?)([\w.-]+):([\w.-]+):jar:([\w.-]+)/.exec(line);
        if (node === null) break;
        const depth = (node[1] as string).length / 3;
        stack.length = depth;
        const key = `${node[3]}:${node[4]}`;
        if (key === QDOX) {
          routes.push({ via: [...stack], requested: node[5] as string });
          if (node[2] === '') kept = node[5];
        }
        stack.push(key);
      }
      expect(kept).toBe(app.selected);
      expect(sorted(app.paths.map(routeOf))).toEqual(sorted(routes));
    });
  },
);
