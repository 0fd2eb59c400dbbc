// --read-maven-repository over the wire (the built bin on stdio): only a server started with it reads the
// server user's ~/.m2/repository (here a scratch HOME), names it `~/.m2/repository`, never its server path;
// without it the answer is unknown and names the flag.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
let scratch: string;
let reading: StdioSession;
let plain: StdioSession;
let looping: StdioSession;

const FILES: Record<string, string> = {
  'tree/pom.xml':
    '<project><groupId>g</groupId><artifactId>app</artifactId><version>1</version>\n<dependencyManagement><dependencies><dependency><groupId>r</groupId><artifactId>bom</artifactId><version>1</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>\n<dependencies><dependency><groupId>x</groupId><artifactId>d</artifactId></dependency></dependencies></project>\n',
  'home/.m2/repository/r/bom/1/bom-1.pom':
    '<project><groupId>r</groupId><artifactId>bom</artifactId><version>1</version><dependencyManagement><dependencies><dependency><groupId>x</groupId><artifactId>d</artifactId><version>4.2</version></dependency></dependencies></dependencyManagement></project>\n',
};

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'build-m2-wire-'));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(scratch, file)), { recursive: true });
    await writeFile(path.join(scratch, file), text);
  }
  const tree = path.join(scratch, 'tree');
  const env = { HOME: path.join(scratch, 'home') };
  reading = await connectOverStdio({
    bin,
    clientName: 'build-m2-wire',
    args: ['--allowed-dir', tree, '--read-maven-repository'],
    env,
  });
  plain = await connectOverStdio({ bin, clientName: 'build-m2-wire', args: ['--allowed-dir', tree], env });
  // A HOME whose ~/.m2/repository is a link to itself: the repository cannot be opened at all.
  await mkdir(path.join(scratch, 'loop-home', '.m2'), { recursive: true });
  await symlink('repository', path.join(scratch, 'loop-home', '.m2', 'repository'));
  looping = await connectOverStdio({
    bin,
    clientName: 'build-m2-wire',
    args: ['--allowed-dir', tree, '--read-maven-repository'],
    env: { HOME: path.join(scratch, 'loop-home') },
  });
});
afterAll(async () => {
  await reading?.close();
  await plain?.close();
  await looping?.close();
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

const versionOfD = async (session: StdioSession) => {
  const result = await session.call(
    'build_dependencies',
    { path: '.', dependency: 'x:d' },
    { timeoutMs: 60_000 },
  );
  expect(result.isError).toBe(false);
  const dependencies = result.structuredContent?.dependencies as Array<{ version: Record<string, unknown> }>;
  expect(dependencies).toHaveLength(1);
  return dependencies[0]?.version;
};

describe('--read-maven-repository', () => {
  it("reads a BOM from the server user's ~/.m2/repository, naming it so, with the tree's import to edit", async () => {
    const version = await versionOfD(reading);
    expect(version).toMatchObject({
      spec: '4.2',
      source: 'bom',
      via: 'r:bom:1 ~/.m2/repository/r/bom/1/bom-1.pom:1 <dependencyManagement>',
      defined_at: { file: 'pom.xml', line: 2 },
    });
    expect(JSON.stringify(version)).not.toContain(scratch);
  });

  it('reads nothing outside the tree without it, and says which flag would', async () => {
    const version = await versionOfD(plain);
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain('r:bom:1, which is not a POM in the tree');
    expect(version?.unknown).toContain('--read-maven-repository');
  });

  it('still answers the build when the repository cannot be opened, saying why', async () => {
    const version = await versionOfD(looping);
    expect(version?.spec).toBeUndefined();
    expect(version?.unknown).toContain(
      'is not in the local repository ~/.m2/repository (it is a loop of links)',
    );
    expect(JSON.stringify(version)).not.toContain(scratch);
  });
});
