import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildTree, DEFAULT_TREE_LIMITS } from './buildTree.js';

// 600 module folders, every other one with a build file, each with a nested folder: more than one hand-back of
// the event loop's worth. The walk opens folders synchronously, and nothing closes such a descriptor but the
// walk: every path out of it (answer, limit, cancellation) must leave no descriptor open.
const FOLDERS = 600;
let base: string;

const openDescriptors = () => readdirSync('/proc/self/fd').length;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'build-tree-'));
  await writeFile(path.join(base, 'settings.gradle'), "rootProject.name = 'tree'\n");
  for (let index = 0; index < FOLDERS; index++) {
    const folder = path.join(base, `m${String(index).padStart(3, '0')}`);
    await mkdir(path.join(folder, 'nested'), { recursive: true });
    if (index % 2 === 0) await writeFile(path.join(folder, 'build.gradle'), '\n');
  }
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe.skipIf(!existsSync('/proc/self/fd'))('BuildTree.walk', () => {
  it('walks every folder in order and keeps open only those with build files, until closed', async () => {
    await using root = await ConfinedDirectory.confinedTo(base);
    const before = openDescriptors();
    const tree = await BuildTree.walk(root);
    expect(tree.folders.size).toBe(1 + 2 * FOLDERS);
    expect([...tree.folders].slice(0, 4)).toEqual(['.', 'm000', 'm000/nested', 'm001']);
    expect(tree.files.size).toBe(1 + FOLDERS / 2);
    expect(openDescriptors() - before).toBe(FOLDERS / 2);
    expect(await tree.read('m598/build.gradle')).toBe('\n');
    await tree.close();
    expect(openDescriptors()).toBe(before);
  });

  it('closes every folder it opened when it stops at its folder limit or its depth', async () => {
    await using root = await ConfinedDirectory.confinedTo(base);
    const before = openDescriptors();
    const truncated = await BuildTree.walk(root, { ...DEFAULT_TREE_LIMITS, maxFolders: 301 });
    expect(truncated.truncated).toBe(true);
    expect(truncated.folders.size).toBe(301);
    await truncated.close();
    const shallow = await BuildTree.walk(root, { ...DEFAULT_TREE_LIMITS, maxDepth: 1 });
    expect(shallow.folders.has('m000/nested')).toBe(false);
    await shallow.close();
    expect(openDescriptors()).toBe(before);
  });

  it('stops when cancelled mid-walk, with every folder it opened closed', async () => {
    await using root = await ConfinedDirectory.confinedTo(base);
    const before = openDescriptors();
    const controller = new AbortController();
    const walking = BuildTree.walk(root, DEFAULT_TREE_LIMITS, controller.signal);
    // Runs when the walk first hands the event loop back, before it goes on.
    setImmediate(() => controller.abort());
    await expect(walking).rejects.toThrow();
    expect(controller.signal.aborted).toBe(true);
    expect(openDescriptors()).toBe(before);
  });
});
