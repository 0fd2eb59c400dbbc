import { appendFile, cp, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from './model.js';
import { readWorkspace } from './readWorkspace.js';

let base: string;
let root: string;
const HOUR_AGO = new Date(Date.now() - 3_600_000);
// Judged a minute on, the files written here are settled (not inside the window where a change may not move
// their times), so a repeated read is answered from the cache: what these tests check is that it never
// answers stale.
const settled = { now: () => Date.now() + 60_000 };

async function read(): Promise<Workspace> {
  await using directory = await ConfinedDirectory.confinedTo(root);
  return await readWorkspace(directory, 'cached', settled);
}

const modules = (workspace: Workspace) => workspace.systems[0]?.modules.map((module) => module.id);
const edges = (workspace: Workspace) => workspace.systems[0]?.edges.map((edge) => `${edge.from}>${edge.to}`);

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'build-cache-'));
  root = path.join(base, 'root');
  await mkdir(path.join(root, 'a'), { recursive: true });
  await mkdir(path.join(root, 'b'));
  await writeFile(path.join(root, 'settings.gradle'), "include ':a', ':b'\n");
  await writeFile(
    path.join(root, 'a', 'build.gradle'),
    "dependencies {\n  implementation project(':b')\n}\n",
  );
  await writeFile(path.join(root, 'b', 'build.gradle'), '\n');
  // Old times, so that adding an entry to a folder moves the folder's time even within one clock tick.
  for (const entry of ['settings.gradle', 'a/build.gradle', 'b/build.gradle', 'a', 'b', '.']) {
    await utimes(path.join(root, entry), HOUR_AGO, HOUR_AGO);
  }
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('readWorkspace cache', () => {
  it('answers an unchanged build from the cache, and sees every kind of change at once', async () => {
    const first = await read();
    expect(modules(first)).toEqual([':', ':a', ':b']);
    expect(await read()).toBe(first);

    await appendFile(path.join(root, 'b', 'build.gradle'), "dependencies { implementation project(':a') }\n");
    const edited = await read();
    expect(edited).not.toBe(first);
    expect(edges(edited)).toContain(':b>:a');
    expect(await read()).toBe(edited);

    // A new folder with a build file, no file read before changed: only the folder's own time tells.
    await mkdir(path.join(root, 'c'));
    await writeFile(path.join(root, 'c', 'build.gradle'), '\n');
    const folder = await read();
    expect(folder).not.toBe(edited);
    expect(folder.systems.flatMap((system) => system.files)).toContain('c/build.gradle');

    await writeFile(path.join(root, 'settings.gradle'), "include ':a', ':b', ':c'\n");
    const added = await read();
    expect(modules(added)).toEqual([':', ':a', ':b', ':c']);

    // A module folder replaced by a link to an identical copy outside the root: not read through the link.
    await cp(path.join(root, 'c'), path.join(base, 'c-outside'), { recursive: true });
    await rm(path.join(root, 'c'), { recursive: true });
    await symlink(path.join(base, 'c-outside'), path.join(root, 'c'));
    const linked = await read();
    expect(linked).not.toBe(added);
    expect(linked.systems[0]?.files).not.toContain('c/build.gradle');
  });
});
