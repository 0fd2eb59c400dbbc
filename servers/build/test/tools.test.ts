// The tools over the wire: the built bin on stdio, driven by the official SDK client, on the checked-in
// fixtures and on hostile trees made by the test (a FIFO named build.gradle, a link out of the root, a 50 MB POM
// over the size cap, a build script that does not parse, a module cycle).
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, open, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession, type ToolOutcome } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

let server: StdioSession;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'build-wire-'));
  server = await connectOverStdio({
    bin,
    clientName: 'build-wire-test',
    args: ['--allowed-dir', fixtures, '--allowed-dir', scratch],
  });
});
afterAll(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

function call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  return server.call(name, args, { timeoutMs: 60_000 });
}

async function tree(name: string, files: Record<string, string>): Promise<string> {
  const root = path.join(scratch, name);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

/** A well-formed POM of `megabytes` MB, written a megabyte of blanks at a time (no 50 MB string in memory). */
async function writeBigPom(file: string, megabytes: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const handle = await open(file, 'w');
  try {
    await handle.write('<project><artifactId>big</artifactId>');
    const blanks = Buffer.alloc(1024 * 1024, ' ');
    for (let written = 0; written < megabytes; written++) await handle.write(blanks);
    await handle.write('</project>\n');
  } finally {
    await handle.close();
  }
}

describe('tools/list', () => {
  it('lists the static tools, all read-only and closed-world', async () => {
    const { tools } = await server.client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      expect.arrayContaining(['build_dependencies', 'build_health', 'build_why', 'build_workspace']),
    );
    for (const name of ['build_dependencies', 'build_health', 'build_why', 'build_workspace']) {
      const tool = tools.find((candidate) => candidate.name === name);
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      expect(tool?.outputSchema).toBeDefined();
    }
  });
});

describe('build_workspace', () => {
  it('reads the Kotlin DSL fixture: projects, the project edge, the wrapper, settings and the catalog', async () => {
    const result = await call('build_workspace', { path: 'gradle-kotlin' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      systems: [{ kind: 'gradle', root: '.', modules: 3, edges: 1 }],
      modules: [{ id: ':' }, { id: ':app', dir: 'app' }, { id: ':core', dir: 'core' }],
      edges: [
        {
          from: ':app',
          to: ':core',
          configuration: 'implementation',
          at: { file: 'app/build.gradle.kts', line: 6 },
        },
      ],
      tools: [
        { tool: 'gradle', version: '8.5', at: { file: 'gradle/wrapper/gradle-wrapper.properties', line: 3 } },
      ],
      catalogs: [{ name: 'libs', libraries: 2, versions: 2 }],
      truncated: false,
    });
  });

  it('pages a large build under a small budget, every module once, then refuses the cursor once files change', async () => {
    const ids = Array.from({ length: 120 }, (_, index) => `:module-${String(index).padStart(3, '0')}`);
    const files: Record<string, string> = {
      'settings.gradle.kts': `${ids.map((id) => `include("${id}")`).join('\n')}\n`,
    };
    for (const id of ids)
      files[`${id.slice(1)}/build.gradle.kts`] = 'dependencies { implementation(project(":module-000")) }\n';
    const root = await tree('many', files);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await call('build_workspace', {
        path: root,
        max_tokens: 1000,
        ...(cursor === undefined ? {} : { cursor }),
      });
      expect(page.isError, page.text).toBeFalsy();
      expect(page.text.length).toBeLessThanOrEqual(2500);
      const content = page.structuredContent as {
        modules: Array<{ id: string }>;
        next_cursor?: string;
        total: number;
      };
      expect(content.total).toBe(121);
      seen.push(...content.modules.map((module) => module.id));
      cursor = content.next_cursor;
      pages++;
    } while (cursor !== undefined && pages < 200);
    expect(pages).toBeGreaterThan(2);
    expect(seen).toEqual([':', ...ids]);
    const first = await call('build_workspace', { path: root, max_tokens: 1000 });
    await writeFile(path.join(root, 'module-000/build.gradle.kts'), '// changed\n');
    const stale = await call('build_workspace', {
      path: root,
      max_tokens: 1000,
      cursor: first.structuredContent?.next_cursor,
    });
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain('the input changed since');
  });

  it('refuses a folder with no build file, saying what it looked for', async () => {
    const empty = await tree('empty', { 'README.md': 'nothing\n' });
    const result = await call('build_workspace', { path: empty });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('No build found');
  });

  it('answers the rest of a build around a FIFO, a link out of the root, an oversized POM and a broken script', async () => {
    const root = await tree('hostile', {
      'settings.gradle': "include ':good', ':broken', ':fifo'\n",
      'good/build.gradle': "dependencies {\n  implementation 'a:b:1.0'\n}\n",
      'broken/build.gradle': "dependencies {\n  implementation 'a:b:1.0'\n}\n}}} ((( \n",
      'outside/secret.txt': 'secret\n',
    });
    await writeBigPom(path.join(root, 'big', 'pom.xml'), 50);
    execFileSync('mkfifo', [path.join(root, 'fifo-dir')]);
    await mkdir(path.join(root, 'fifo'), { recursive: true });
    execFileSync('mkfifo', [path.join(root, 'fifo', 'build.gradle')]);
    const elsewhere = await tree('elsewhere', { 'pom.xml': '<project><artifactId>x</artifactId></project>' });
    await mkdir(path.join(root, 'linked'));
    await symlink(path.join(elsewhere, 'pom.xml'), path.join(root, 'linked', 'pom.xml'));
    const result = await call('build_workspace', { path: root });
    expect(result.isError).toBeFalsy();
    const problems = result.structuredContent?.problems as Array<{
      file: string;
      code: string;
      line?: number;
    }>;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'fifo/build.gradle', code: 'WRONG_FILE_KIND' }),
        expect.objectContaining({ file: 'linked/pom.xml', code: 'PATH_NOT_ALLOWED' }),
        expect.objectContaining({ file: 'big/pom.xml', code: 'FILE_TOO_LARGE' }),
        expect.objectContaining({ file: 'broken/build.gradle', code: 'SYNTAX_ERROR', line: 4 }),
      ]),
    );
    expect(result.structuredContent?.modules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: ':good' }),
        expect.objectContaining({ id: ':broken' }),
      ]),
    );
    // The 50 MB POM is refused by size before it is read, naming the file and the cap.
    const big = problems.find((problem) => problem.code === 'FILE_TOO_LARGE') as { message?: string };
    expect(big.message).toMatch(/^File 'big\/pom\.xml' holds 52428\d+ bytes or more, over the \d+ /);
    // No server-side path in the answer.
    expect(result.text).not.toContain(scratch);
    // Asked about the oversized POM's own folder: answered, with the refusal as its only content.
    const alone = await call('build_workspace', { path: path.join(root, 'big') });
    expect(alone.isError).toBeFalsy();
    expect(alone.structuredContent).toMatchObject({
      modules: [],
      problems: [{ file: 'pom.xml', code: 'FILE_TOO_LARGE' }],
    });
    // And the server goes on answering.
    const dependencies = await call('build_dependencies', { path: root, module: ':good' });
    expect(dependencies.structuredContent).toMatchObject({
      dependencies: [{ coordinates: 'a:b', version: { spec: '1.0' } }],
    });
  });

  it('reports a module cycle instead of following it', async () => {
    const root = await tree('cycle', {
      'settings.gradle.kts': 'include(":a", ":b", ":c")\n',
      'a/build.gradle.kts': 'dependencies { implementation(project(":b")) }\n',
      'b/build.gradle.kts': 'dependencies { implementation(project(":c")) }\n',
      'c/build.gradle.kts': 'dependencies { implementation(project(":a")) }\n',
    });
    const result = await call('build_workspace', { path: root });
    expect(result.structuredContent?.cycles).toEqual([
      { system: 'gradle', modules: [':a', ':b', ':c', ':a'] },
    ]);
    const why = await call('build_why', { path: root, module: ':a', dependency: ':a' });
    expect(why.isError).toBeFalsy();
  });
});

describe('build_dependencies', () => {
  it('says where each version comes from, with the line to edit', async () => {
    const result = await call('build_dependencies', { path: 'gradle-kotlin', module: ':core' });
    expect(result.structuredContent?.dependencies).toEqual([
      expect.objectContaining({
        configuration: 'api',
        coordinates: 'com.google.guava:guava',
        version: {
          spec: '33.0.0-jre',
          source: 'catalog',
          via: 'libs.guava',
          defined_at: { file: 'gradle/libs.versions.toml', line: 2 },
        },
        at: { file: 'core/build.gradle.kts', line: 6 },
      }),
      expect.objectContaining({
        coordinates: 'org.slf4j:slf4j-api',
        version: { spec: '2.0.9', source: 'literal' },
      }),
      expect.objectContaining({
        configuration: 'testImplementation',
        coordinates: 'org.junit.jupiter:junit-jupiter',
      }),
    ]);
  });

  it('refuses resolve: true when build execution is not allowed', async () => {
    const result = await call('build_dependencies', { path: 'gradle-kotlin', resolve: true });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('--allow-build-execution');
  });

  it('names the module ids it has when asked for one it does not', async () => {
    const result = await call('build_dependencies', { path: 'gradle-kotlin', module: 'app' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('":app"');
  });
});

describe('build_why', () => {
  it('follows the project edge to the declaring module and points at the catalog line', async () => {
    const result = await call('build_why', { path: 'gradle-kotlin', module: ':app', dependency: 'guava' });
    expect(result.structuredContent).toMatchObject({
      declared: true,
      paths: [
        {
          modules: [':app', ':core'],
          via: ['implementation'],
          edit: { file: 'gradle/libs.versions.toml', line: 2 },
        },
      ],
    });
  });
});

describe('build_health', () => {
  it('reports each rule the fixture breaks, with its line and documentation', async () => {
    const result = await call('build_health', { path: 'gradle-kotlin' });
    const findings = result.structuredContent?.findings as Array<{
      rule: string;
      file: string;
      line: number;
      docs: string;
    }>;
    expect(findings.map((finding) => `${finding.rule} ${finding.file}:${finding.line}`).sort()).toEqual([
      'dependency/dynamic-version app/build.gradle.kts:8',
      'dependency/version-mismatch app/build.gradle.kts:7',
      'gradle/build-cache-off gradle.properties:1',
      'gradle/configuration-cache-off gradle.properties:1',
      'gradle/cross-project-configuration build.gradle.kts:5',
      'gradle/eager-task-api app/build.gradle.kts:12',
      'repository/jcenter build.gradle.kts:8',
    ]);
    for (const finding of findings) expect(finding.docs).toMatch(/^https:\/\//);
  });
});
