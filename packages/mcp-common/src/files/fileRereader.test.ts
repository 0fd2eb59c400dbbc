import { mkdtemp, realpath, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AllowedPaths } from './allowedPaths.js';

let project: string;
let allowed: AllowedPaths;

beforeEach(async () => {
  project = await realpath(await mkdtemp(path.join(tmpdir(), 'rereader-')));
  allowed = await AllowedPaths.under(project);
});
afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

/** A rereader of `name` holding `text`, its handle closed as a reader's is once the file was read. */
async function rereaderOf(name: string, text: string) {
  await writeFile(path.join(project, name), text);
  const file = await allowed.openFile(name);
  const rereader = file.rereader();
  await file.close();
  return rereader;
}

describe('FileRereader', () => {
  it('reads the same bytes again after the handle is closed', async () => {
    const rereader = await rereaderOf('r.xml', 'abcdefghij');
    expect(rereader.readSync(2, 6)?.toString()).toBe('cdef');
    expect(rereader.readSync(0, 10)?.toString()).toBe('abcdefghij');
  });

  it('reads nothing past the end', async () => {
    const rereader = await rereaderOf('r.xml', 'abc');
    expect(rereader.readSync(1, 8)).toBeUndefined();
  });

  it('refuses a file rewritten, or touched since it was read', async () => {
    const file = path.join(project, 'r.xml');
    const rereader = await rereaderOf('r.xml', 'abcdefghij');
    await writeFile(file, 'ABCDEFGHIJK');
    expect(rereader.readSync(0, 4)).toBeUndefined();

    const same = await rereaderOf('s.xml', 'abcdefghij');
    const before = new Date('2020-01-01T00:00:00Z');
    await utimes(path.join(project, 's.xml'), before, before);
    // Same bytes, another modification time: refused.
    expect(same.readSync(0, 4)).toBeUndefined();
  });

  it('refuses a file replaced under its name, by a file, or by a link to the old bytes elsewhere', async () => {
    const rereader = await rereaderOf('r.xml', 'abcdefghij');
    await writeFile(path.join(project, 'other.xml'), 'abcdefghij');
    await rename(path.join(project, 'other.xml'), path.join(project, 'r.xml'));
    expect(rereader.readSync(0, 4)).toBeUndefined();

    const linked = await rereaderOf('l.xml', 'abcdefghij');
    await rename(path.join(project, 'l.xml'), path.join(project, 'moved.xml'));
    await symlink(path.join(project, 'moved.xml'), path.join(project, 'l.xml'));
    expect(linked.readSync(0, 4)).toBeUndefined();
  });

  it('refuses a file removed', async () => {
    const rereader = await rereaderOf('r.xml', 'abcdefghij');
    await rm(path.join(project, 'r.xml'));
    expect(rereader.readSync(0, 4)).toBeUndefined();
  });
});
