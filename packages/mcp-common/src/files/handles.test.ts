import { execFileSync } from 'node:child_process';
import {
  appendFile,
  chmod,
  link,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskForClient } from '../masking/masking.js';
import { ToolError } from '../tools/toolError.js';
import { AllowedPaths } from './allowedPaths.js';
import { ConfinedDirectory, PATH_LIMITS } from './index.js';

// project/ is allowed; outside/ is not. Links, a FIFO and a socket inside project/ are what a hostile tree holds.
let base: string;
let project: string;
let outside: string;
let allowed: AllowedPaths;
let socketServer: Server;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'confined-files-')));
  project = path.join(base, 'project');
  outside = path.join(base, 'outside');
  await mkdir(path.join(project, 'sub', 'deep'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(project, 'a.txt'), 'alpha');
  await writeFile(path.join(project, 'sub', 'b.txt'), 'bravo');
  await writeFile(path.join(project, 'sub', 'deep', 'c.txt'), 'charlie');
  await writeFile(path.join(outside, 'secret.txt'), 'outside bytes');
  await symlink('sub/b.txt', path.join(project, 'link-in'));
  await symlink('../outside/secret.txt', path.join(project, 'link-out'));
  await symlink('../outside', path.join(project, 'dir-link-out'));
  await symlink('../outside/not-yet.txt', path.join(project, 'dangling-out'));
  await symlink('sub/not-yet.txt', path.join(project, 'dangling-in'));
  await symlink('loop-b', path.join(project, 'loop-a'));
  await symlink('loop-a', path.join(project, 'loop-b'));
  await symlink('/dev/zero', path.join(project, 'zero'));
  execFileSync('mkfifo', [path.join(project, 'pipe')]);
  socketServer = createServer();
  await new Promise<void>((resolve) => socketServer.listen(path.join(project, 'sock'), resolve));
  allowed = await AllowedPaths.under(project);
});

afterAll(async () => {
  await new Promise((resolve) => socketServer.close(resolve));
  await rm(base, { recursive: true, force: true });
});

async function refusal(attempt: Promise<unknown>): Promise<ToolError> {
  const error = await attempt.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe('AllowedPaths.openFile', () => {
  it('reads a regular file through its descriptor, with its size, stat and real path', async () => {
    const file = await allowed.openFile('sub/b.txt');
    try {
      expect(file.size).toBe(5);
      expect(file.stat.isFile()).toBe(true);
      expect(file.realPath).toBe(path.join(project, 'sub', 'b.txt'));
      expect(file.given).toBe('sub/b.txt');
      expect((await file.read({ maxBytes: 100 })).toString()).toBe('bravo');
      expect(await file.readText({ maxBytes: 5 })).toBe('bravo');
      expect((await file.readAt(1, 3)).toString()).toBe('rav');
      const landing = Buffer.alloc(8, '-');
      const landed = await file.readAt(3, 4, landing);
      expect([landed.toString(), landed.buffer === landing.buffer, landing.toString()]).toEqual([
        'vo',
        true,
        'vo------',
      ]);
      await expect(file.readAt(0, 9, landing)).rejects.toThrow(RangeError);
      const streamed: Buffer[] = [];
      for await (const chunk of file.stream({ start: 2 })) streamed.push(chunk as Buffer);
      expect(Buffer.concat(streamed).toString()).toBe('avo');
    } finally {
      await file.close();
      await file.close();
    }
  });

  it('keeps the file open when a stream over it is destroyed early, and honours start, end and chunk size', async () => {
    const file = await allowed.openFile('sub/b.txt');
    try {
      const chunks: string[] = [];
      for await (const chunk of file.stream({ start: 1, end: 3, highWaterMark: 2 }))
        chunks.push(String(chunk));
      expect(chunks).toEqual(['ra', 'v']);
      for await (const _chunk of file.stream({ highWaterMark: 1 })) break; // destroys the stream
      expect(await file.readText({ maxBytes: 5 })).toBe('bravo');
    } finally {
      await file.close();
    }
  });

  it('works with await using, closing the descriptor at the end of the block', async () => {
    let descriptor: string | undefined;
    {
      await using file = await allowed.openFile(path.join(project, 'a.txt'));
      descriptor = file.descriptorPath;
      expect(await file.readText({ maxBytes: 10 })).toBe('alpha');
      if (descriptor !== undefined) expect(await readFile(descriptor, 'utf8')).toBe('alpha');
    }
    if (descriptor !== undefined) {
      // The descriptor number is free again (or reused by something that is not our file).
      const after = await realpath(descriptor).catch(() => undefined);
      expect(after).not.toBe(path.join(project, 'a.txt'));
    }
  });

  it('follows a link that stays inside to its real file', async () => {
    await using file = await allowed.openFile('link-in');
    expect(file.realPath).toBe(path.join(project, 'sub', 'b.txt'));
    expect(await file.readText({ maxBytes: 10 })).toBe('bravo');
  });

  it('refuses links and paths that lead outside, naming the path exactly as given', async () => {
    for (const given of [
      'link-out',
      'dir-link-out/secret.txt',
      '../outside/secret.txt',
      path.join(outside, 'secret.txt'),
    ]) {
      const error = await refusal(allowed.openFile(given));
      expect(error.code).toBe('PATH_NOT_ALLOWED');
      expect(error.message).toContain(`'${given}'`);
      // What the client reads: its own text back, not a bare file name that names another file.
      expect(maskForClient(error.message, { file: given })).toContain(`'${given}'`);
      expect(maskForClient(error.message, { file: 'other' })).not.toContain(base);
    }
  });

  it('refuses outside paths the same way whether they exist or not (no existence oracle)', async () => {
    const there = await refusal(allowed.openFile(path.join(outside, 'secret.txt')));
    const missing = await refusal(allowed.openFile(path.join(outside, 'missing.txt')));
    const missingDirectory = await refusal(allowed.openFile(path.join(outside, 'no', 'such.txt')));
    expect([there.code, missing.code, missingDirectory.code]).toEqual(Array(3).fill('PATH_NOT_ALLOWED'));
    expect((await refusal(allowed.openFile('dangling-out'))).code).toBe('PATH_NOT_ALLOWED');
  });

  it('refuses what is not a regular file by kind, without opening it', async () => {
    const cases: Array<[string, string]> = [
      ['sub', 'directory'],
      ['.', 'directory'],
      ['pipe', 'FIFO (named pipe)'],
      ['sock', 'socket'],
    ];
    for (const [given, kind] of cases) {
      const error = await refusal(allowed.openFile(given));
      expect(error.code, given).toBe('WRONG_FILE_KIND');
      expect(error.message).toContain(`is a ${kind}, not a regular file`);
    }
    const devices = await AllowedPaths.under('/dev');
    const zero = await refusal(devices.openFile('zero'));
    expect(zero.message).toContain('is a character device');
    // A link to a device outside the roots is refused as outside, before its kind is looked at.
    expect((await refusal(allowed.openFile('zero'))).code).toBe('PATH_NOT_ALLOWED');
  });

  it('refuses missing files, dangling links inside and loops with their own codes', async () => {
    expect((await refusal(allowed.openFile('nope.txt'))).code).toBe('PATH_NOT_FOUND');
    expect((await refusal(allowed.openFile('no/such/dir/file.txt'))).code).toBe('PATH_NOT_FOUND');
    expect((await refusal(allowed.openFile('dangling-in'))).code).toBe('PATH_NOT_FOUND');
    expect((await refusal(allowed.openFile('a.txt/inside'))).code).toBe('PATH_NOT_ACCESSIBLE');
    const loop = await refusal(allowed.openFile('loop-a'));
    expect(loop.code).toBe('INVALID_PATH');
    expect(loop.message).toContain('loop of symbolic links');
  });

  it('reads what a file grew to since it was opened, up to maxBytes', async () => {
    await writeFile(path.join(project, 'growing.txt'), 'start');
    await using file = await allowed.openFile('growing.txt');
    await appendFile(path.join(project, 'growing.txt'), '-more'.repeat(20_000));
    expect((await file.read({ maxBytes: 100_005 })).length).toBe(100_005);
    expect((await refusal(file.read({ maxBytes: 100_004 }))).code).toBe('FILE_TOO_LARGE');
  });

  it('stops a read, a stream and a listing when the call is cancelled', async () => {
    const cancelled = new AbortController();
    cancelled.abort(new Error('client went away'));
    await using file = await allowed.openFile('sub/b.txt');
    await expect(file.read({ maxBytes: 10, signal: cancelled.signal })).rejects.toThrow('client went away');
    expect(() => file.stream({ signal: cancelled.signal })).toThrow('client went away');
    const cancelling = new AbortController();
    const consume = async () => {
      for await (const _chunk of file.stream({ signal: cancelling.signal, highWaterMark: 1 })) {
        cancelling.abort(new Error('client went away'));
      }
    };
    await expect(consume()).rejects.toThrow('The operation was aborted');
    await using dir = await allowed.openDirectory('sub');
    await expect(async () => {
      for await (const _entry of dir.entries({ signal: cancelled.signal })) expect.unreachable();
    }).rejects.toThrow('client went away');
  });

  it('reads a file with a second name (a hard link): the name asked for is inside; refused only on request', async () => {
    // Review item 13(c): the other name may lie outside, but the bytes are reachable by an allowed name, and
    // pnpm stores and `git clone --local` make such files everywhere. A caller that distrusts them opts in.
    await link(path.join(outside, 'secret.txt'), path.join(project, 'read-hard-link'));
    await using file = await allowed.openFile('read-hard-link');
    expect(file.stat.nlink).toBe(2);
    expect(await file.readText({ maxBytes: 100 })).toBe('outside bytes');
    const refused = await refusal(allowed.openFile('read-hard-link', { refuseHardLinks: true }));
    expect(refused.code).toBe('PATH_NOT_ACCESSIBLE');
    expect(refused.message).toBe(
      "Path 'read-hard-link' has more than one name (hard links), so it is not read; read a plain copy instead.",
    );
    await using root = await allowed.openDirectory('.');
    expect((await refusal(root.openFile('read-hard-link', { refuseHardLinks: true }))).code).toBe(
      'PATH_NOT_ACCESSIBLE',
    );
    await using single = await allowed.openFile('a.txt', { refuseHardLinks: true });
    expect(await single.readText({ maxBytes: 10 })).toBe('alpha');
  });

  it('refuses a read over maxBytes before reading', async () => {
    await using file = await allowed.openFile('sub/deep/c.txt');
    const error = await refusal(file.read({ maxBytes: 3 }));
    expect(error.code).toBe('FILE_TOO_LARGE');
    expect(error.message).toContain("'sub/deep/c.txt'");
  });
});

describe('path argument caps', () => {
  it(`refuses a path over ${PATH_LIMITS.maxBytes} bytes before touching the file system, echoing only its start`, async () => {
    const huge = `${'a/'.repeat(60_000)}x`;
    const error = await refusal(allowed.openFile(huge));
    expect(error.code).toBe('INVALID_PATH');
    expect(error.message).toContain(`longer than ${PATH_LIMITS.maxBytes} bytes`);
    expect(error.message.length).toBeLessThan(600);
    expect((await refusal(allowed.resolve(huge))).code).toBe('INVALID_PATH');
  });

  it('echoes the start of a long refused path to the client, not just its last segment (review item 10)', async () => {
    for (const given of [
      path.join(outside, 'd'.repeat(150), 'e'.repeat(150), 'f'.repeat(150)),
      `${path.join(outside, 'x'.repeat(100))}/${'y/'.repeat(200)}z`,
    ]) {
      const error = await refusal(allowed.openFile(given));
      expect(error.code).toBe('PATH_NOT_ALLOWED');
      const shown = maskForClient(error.message, { path: given });
      expect(shown).toContain(`Path '${given.slice(0, 200)}…' is outside`);
      // A server path in the same message is still masked.
      expect(maskForClient(`${error.message} ${path.join(project, 'a.txt')}`, { path: given })).not.toContain(
        project,
      );
    }
  });

  it(`refuses more than ${PATH_LIMITS.maxSegments} segments, and a NUL byte`, async () => {
    expect((await refusal(allowed.openFile('./'.repeat(PATH_LIMITS.maxSegments)))).message).toContain(
      'segments',
    );
    expect((await refusal(allowed.openFile('a.txt\0.png'))).code).toBe('INVALID_PATH');
  });

  it('walks the longest allowed path (every segment missing) and answers', async () => {
    const longest = Array(PATH_LIMITS.maxSegments).fill('d').join('/');
    expect((await refusal(allowed.openFile(longest))).code).toBe('PATH_NOT_FOUND');
    expect(await allowed.resolve(longest)).toBe(path.join(project, longest));
  });

  it('checks the abort signal at every step, and stops at the step it fires', async () => {
    let checks = 0;
    // Only throwIfAborted is used by the walk; this one fires at the tenth step of a 256-segment walk.
    const signal = {
      throwIfAborted() {
        checks += 1;
        if (checks === 10) throw new Error('cancelled mid-walk');
      },
    } as unknown as AbortSignal;
    const longest = Array(PATH_LIMITS.maxSegments / 2)
      .fill('sub/..')
      .join('/');
    await expect(allowed.resolve(longest, { signal })).rejects.toThrow('cancelled mid-walk');
    expect(checks).toBe(10);
  });

  it('stops when the call is cancelled', async () => {
    const cancelled = new AbortController();
    cancelled.abort(new Error('client went away'));
    // Started one at a time, so that no rejection waits unobserved while another is awaited.
    for (const attempt of [
      () => allowed.openFile('sub/b.txt', { signal: cancelled.signal }),
      () => allowed.openDirectory('sub', { signal: cancelled.signal }),
      () => allowed.resolve('sub/new', { signal: cancelled.signal }),
      () => allowed.writeFile('sub/new.txt', 'x', { signal: cancelled.signal }),
    ]) {
      await expect(attempt()).rejects.toThrow('client went away');
    }
    await expect(lstat(path.join(project, 'sub', 'new.txt'))).rejects.toThrow();
  });
});

/** The refusal a synchronous call throws: its code and message (it must be mcp-common's ToolError). */
function refusalOf(attempt: () => unknown): [string, string] {
  try {
    attempt();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return [(error as ToolError).code, (error as ToolError).message];
  }
  throw new Error('not refused');
}

describe('AllowedPaths.openDirectory', () => {
  it('lists entries with their kinds and opens children relative to itself', async () => {
    await using dir = await allowed.openDirectory('sub');
    const entries = [];
    for await (const entry of dir.entries()) entries.push(entry);
    expect(entries.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'b.txt', kind: 'regular file' },
      { name: 'deep', kind: 'directory' },
    ]);
    await using deep = await dir.openDirectory('deep');
    expect(deep.given).toBe('sub/deep');
    await using c = await deep.openFile('c.txt');
    expect(await c.readText({ maxBytes: 10 })).toBe('charlie');
    expect(c.given).toBe('sub/deep/c.txt');
    await using again = await dir.openDirectory('.');
    expect(again.realPath).toBe(dir.realPath);
  });

  it('describes an entry without opening or following it', async () => {
    await using root = await allowed.openDirectory('.');
    expect((await root.statEntry('a.txt'))?.size).toBe(5);
    expect((await root.statEntry('link-out'))?.isSymbolicLink()).toBe(true);
    expect((await root.statEntry('pipe'))?.isFIFO()).toBe(true);
    expect(await root.statEntry('missing')).toBeUndefined();
    for (const name of ['..', 'sub/b.txt', ''])
      expect((await refusal(root.statEntry(name))).code).toBe('INVALID_PATH');
  });

  it('lists and describes many entries at once, synchronously, reading through the descriptor', async () => {
    await using root = await allowed.openDirectory('.');
    const listed = root.listEntries({ maxEntries: 100 });
    const kinds = Object.fromEntries(listed.map((entry) => [entry.name, entry.kind]));
    expect(kinds).toMatchObject({
      'a.txt': 'regular file',
      sub: 'directory',
      'link-out': 'symbolic link',
      pipe: 'FIFO (named pipe)',
      sock: 'socket',
    });
    const [a, link, pipe, missing] = root.statEntries(['a.txt', 'link-out', 'pipe', 'missing']);
    expect(a?.size).toBe(5);
    expect(link?.isSymbolicLink()).toBe(true);
    expect(pipe?.isFIFO()).toBe(true);
    expect(missing).toBeUndefined();
    expect(() => root.statEntries(['sub/b.txt'])).toThrow(/must be the name of an entry/);
  });

  it('reads a small file synchronously, refusing links, other kinds, paths and oversized files', async () => {
    await using root = await allowed.openDirectory('.');
    expect(root.readTextSync('a.txt', { maxBytes: 5 })).toBe('alpha');
    await using sub = await allowed.openDirectory('sub');
    expect(sub.readTextSync('b.txt', { maxBytes: 100 })).toBe('bravo');
    expect(refusalOf(() => root.readTextSync('a.txt', { maxBytes: 4 }))[0]).toBe('FILE_TOO_LARGE');
    expect(refusalOf(() => root.readTextSync('link-out', { maxBytes: 100 }))).toEqual([
      'PATH_NOT_ACCESSIBLE',
      "Path 'link-out' is a symbolic link; it is not read here.",
    ]);
    expect(refusalOf(() => root.readTextSync('pipe', { maxBytes: 100 }))[0]).toBe('WRONG_FILE_KIND');
    expect(refusalOf(() => root.readTextSync('sub', { maxBytes: 100 }))[0]).toBe('WRONG_FILE_KIND');
    expect(refusalOf(() => root.readTextSync('missing', { maxBytes: 100 }))[0]).toBe('PATH_NOT_FOUND');
    expect(refusalOf(() => root.readTextSync('sub/b.txt', { maxBytes: 100 }))[0]).toBe('INVALID_PATH');
    expect(refusalOf(() => sub.readTextSync('..', { maxBytes: 100 }))[0]).toBe('INVALID_PATH');
  });

  it('opens a child folder synchronously, refusing links (in or out), other kinds, paths and missing names', async () => {
    await symlink('sub', path.join(project, 'dir-link-in'));
    await using root = await allowed.openDirectory('.');
    const sub = root.openDirectorySync('sub');
    expect(sub.given).toBe('sub');
    expect(sub.realPath).toBe(path.join(project, 'sub'));
    expect(sub.stat.isDirectory()).toBe(true);
    expect(sub.readTextSync('b.txt', { maxBytes: 100 })).toBe('bravo');
    const deep = sub.openDirectorySync('deep');
    expect(deep.given).toBe('sub/deep');
    await using c = await deep.openFile('c.txt');
    expect(await c.readText({ maxBytes: 10 })).toBe('charlie');
    await deep.close();
    await sub.close();
    // A second close is harmless.
    await sub.close();
    expect(root.readTextSync('a.txt', { maxBytes: 5 })).toBe('alpha');
    expect(refusalOf(() => root.openDirectorySync('dir-link-out'))).toEqual([
      'PATH_NOT_ACCESSIBLE',
      "Path 'dir-link-out' is a symbolic link; it is not opened here.",
    ]);
    expect(refusalOf(() => root.openDirectorySync('dir-link-in'))[0]).toBe('PATH_NOT_ACCESSIBLE');
    expect(refusalOf(() => root.openDirectorySync('a.txt'))[1]).toContain(
      'is a regular file, not a directory',
    );
    expect(refusalOf(() => root.openDirectorySync('pipe'))[1]).toContain(
      'is a FIFO (named pipe), not a directory',
    );
    expect(refusalOf(() => root.openDirectorySync('zero'))[0]).toBe('PATH_NOT_ACCESSIBLE');
    expect(refusalOf(() => root.openDirectorySync('missing'))[0]).toBe('PATH_NOT_FOUND');
    for (const name of ['..', '.', 'sub/deep', ''])
      expect(refusalOf(() => root.openDirectorySync(name))[0]).toBe('INVALID_PATH');
  });

  it('tells whether entries below it are unchanged, by lstat, and never through a folder turned into a link', async () => {
    const tree = path.join(project, 'watched');
    await mkdir(path.join(tree, 'x'), { recursive: true });
    await writeFile(path.join(tree, 'x', 'y.txt'), 'same');
    await using watched = await allowed.openDirectory('watched');
    const snapshot = async () =>
      new Map([
        ['.', await stat(tree)],
        ['x', await lstat(path.join(tree, 'x'))],
        ['x/y.txt', await lstat(path.join(tree, 'x', 'y.txt'))],
      ]);
    const before = await snapshot();
    expect(watched.unchangedSince(before)).toBe(true);
    await appendFile(path.join(tree, 'x', 'y.txt'), '!');
    expect(watched.unchangedSince(before)).toBe(false);
    const edited = await snapshot();
    expect(watched.unchangedSince(edited)).toBe(true);
    // The folder swapped for a link to an identical copy outside: the folder's own entry no longer matches.
    await mkdir(path.join(outside, 'x'));
    await writeFile(path.join(outside, 'x', 'y.txt'), 'same!');
    await rm(path.join(tree, 'x'), { recursive: true });
    await symlink(path.join(outside, 'x'), path.join(tree, 'x'));
    expect(watched.unchangedSince(edited)).toBe(false);
    expect(watched.unchangedSince(new Map([['gone', edited.get('x') as never]]))).toBe(false);
    for (const bad of ['../a.txt', '/etc/hostname', 'x//y.txt'])
      expect(() => watched.unchangedSince(new Map([[bad, edited.get('x') as never]]))).toThrow(
        /must be a path below its folder/,
      );
  });

  it('refuses to list a folder past maxEntries, and reads no further', async () => {
    await using sub = await allowed.openDirectory('sub');
    expect(sub.listEntries({ maxEntries: 2 })).toHaveLength(2);
    expect(() => sub.listEntries({ maxEntries: 1 })).toThrow(/'sub' holds more than 1 entries/);
  });

  it('re-checks children: a link or .. out of the roots is refused, naming the child path', async () => {
    await using root = await allowed.openDirectory('.');
    const error = await refusal(root.openFile('link-out'));
    expect(error.code).toBe('PATH_NOT_ALLOWED');
    expect(error.message).toContain("'link-out'");
    expect((await refusal(root.openDirectory('dir-link-out'))).code).toBe('PATH_NOT_ALLOWED');
    await using sub = await allowed.openDirectory('sub');
    expect((await refusal(sub.openFile('../../outside/secret.txt'))).message).toContain(
      "'sub/../../outside/secret.txt'",
    );
    expect((await refusal(sub.openFile('/etc/hostname'))).code).toBe('INVALID_PATH');
  });

  it('refuses a file by kind', async () => {
    expect((await refusal(allowed.openDirectory('a.txt'))).message).toContain(
      'is a regular file, not a directory',
    );
    expect((await refusal(allowed.openDirectory('pipe'))).message).toContain('is a FIFO (named pipe)');
  });
});

describe('AllowedPaths.writeFile', () => {
  it('creates a file, and replaces one keeping its mode', async () => {
    const created = await allowed.writeFile('written.txt', 'first');
    expect(created).toEqual({ realPath: path.join(project, 'written.txt'), created: true });
    await chmod(path.join(project, 'written.txt'), 0o640);
    expect((await allowed.writeFile('written.txt', 'second, longer')).created).toBe(false);
    expect(await readFile(path.join(project, 'written.txt'), 'utf8')).toBe('second, longer');
    expect((await stat(path.join(project, 'written.txt'))).mode & 0o777).toBe(0o640);
    await allowed.writeFile('written.txt', 'x');
    expect(await readFile(path.join(project, 'written.txt'), 'utf8')).toBe('x');
  });

  it('sets an explicit mode whatever the umask, and creates parents on request', async () => {
    await allowed.writeFile('tools/bin/run.sh', '#!/bin/sh\n', { mode: 0o755, createParents: true });
    expect((await stat(path.join(project, 'tools', 'bin', 'run.sh'))).mode & 0o777).toBe(0o755);
    expect((await refusal(allowed.writeFile('other/x.txt', 'x'))).code).toBe('PATH_NOT_FOUND');
  });

  it('follows a link inside the roots and writes its target', async () => {
    await writeFile(path.join(project, 'target.txt'), 'old');
    await symlink('target.txt', path.join(project, 'write-link'));
    await allowed.writeFile('write-link', 'new');
    expect(await readFile(path.join(project, 'target.txt'), 'utf8')).toBe('new');
    expect((await lstat(path.join(project, 'write-link'))).isSymbolicLink()).toBe(true);
    await allowed.writeFile('dangling-in', 'now here');
    expect(await readFile(path.join(project, 'sub', 'not-yet.txt'), 'utf8')).toBe('now here');
  });

  it('refuses links out of the roots (existing or dangling) and writes nothing there', async () => {
    for (const given of ['link-out', 'dangling-out', 'dir-link-out/new.txt', '../outside/new.txt']) {
      const error = await refusal(allowed.writeFile(given, 'evil', { createParents: true }));
      expect(error.code).toBe('PATH_NOT_ALLOWED');
      expect(error.message).toContain(`'${given}'`);
    }
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside bytes');
    await expect(lstat(path.join(outside, 'not-yet.txt'))).rejects.toThrow();
    await expect(lstat(path.join(outside, 'new.txt'))).rejects.toThrow();
  });

  it('refuses to write a file that has a second name (a hard link could lead outside)', async () => {
    await link(path.join(outside, 'secret.txt'), path.join(project, 'hard-link'));
    expect((await refusal(allowed.writeFile('hard-link', 'evil'))).message).toContain('hard links');
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside bytes');
  });

  it('refuses a FIFO, a socket and a directory by kind, without blocking', async () => {
    expect((await refusal(allowed.writeFile('pipe', 'x'))).message).toContain('FIFO');
    expect((await refusal(allowed.writeFile('sock', 'x'))).message).toContain('socket');
    expect((await refusal(allowed.writeFile('sub', 'x'))).message).toContain('directory');
  });
});

describe('a `..` after a missing segment (review item 1)', () => {
  it('resolve climbs out of the missing segment to the real directory, and follows the link found there', async () => {
    // `nope` is missing: `nope/..` is the root itself, so `dir-link-out` is the link to ../outside.
    for (const given of ['nope/../dir-link-out', 'nope/../dir-link-out/new', 'a/b/../../link-out']) {
      const error = await refusal(allowed.resolve(given));
      expect(error.code, given).toBe('PATH_NOT_ALLOWED');
      expect(error.message).toContain(`'${given}'`);
    }
    expect(await allowed.resolve('nope/../sub/new')).toBe(path.join(project, 'sub', 'new'));
    expect(await allowed.resolve('nope/x/../..')).toBe(project);
    expect(await allowed.resolve('nope/../link-in')).toBe(path.join(project, 'sub', 'b.txt'));
    // Through a dangling link's missing target and back up: judged where the link really points.
    await symlink('sub/gone', path.join(project, 'gone-in'));
    await symlink('../outside/gone', path.join(project, 'gone-out'));
    expect(await allowed.resolve('gone-in/../deep/new')).toBe(path.join(project, 'sub', 'deep', 'new'));
    expect((await refusal(allowed.resolve('gone-out/../secret.txt'))).code).toBe('PATH_NOT_ALLOWED');
    // Out through a missing segment and back in is inside, as the kernel would see it once created.
    expect(await allowed.resolve('../outside/nope/../../project/sub')).toBe(path.join(project, 'sub'));
  });

  it('openFile, openDirectory and writeFile refuse it (the missing segment does not exist) and touch nothing outside', async () => {
    for (const given of ['nope/../link-out', 'nope/../dir-link-out/secret.txt']) {
      expect((await refusal(allowed.openFile(given))).code, given).toBe('PATH_NOT_FOUND');
      expect((await refusal(allowed.writeFile(given, 'evil'))).code, given).toBe('PATH_NOT_FOUND');
    }
    expect((await refusal(allowed.openDirectory('nope/../dir-link-out'))).code).toBe('PATH_NOT_FOUND');
    for (const given of [
      'nope/../link-out',
      'nope/../dir-link-out/made.txt',
      'nope/../dir-link-out/n/m.txt',
    ]) {
      const error = await refusal(allowed.writeFile(given, 'evil', { createParents: true }));
      expect(error.code, given).toBe('PATH_NOT_ALLOWED');
    }
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside bytes');
    await expect(lstat(path.join(outside, 'made.txt'))).rejects.toThrow();
    await expect(lstat(path.join(outside, 'n'))).rejects.toThrow();
    // A refused write made no directory on the way, and a path naming a missing folder writes nothing.
    await expect(lstat(path.join(project, 'nope'))).rejects.toThrow();
    expect((await refusal(allowed.writeFile('nope/x/..', 'x', { createParents: true }))).code).toBe(
      'PATH_NOT_FOUND',
    );
    await expect(lstat(path.join(project, 'nope'))).rejects.toThrow();
    // Inside, a created parent followed by `..` is walked for real.
    await allowed.writeFile('made/../sub/via-made.txt', 'ok', { createParents: true });
    expect(await readFile(path.join(project, 'sub', 'via-made.txt'), 'utf8')).toBe('ok');
    await expect(lstat(path.join(project, 'made'))).rejects.toThrow();
    await allowed.writeFile('made/x/../y/z.txt', 'ok', { createParents: true });
    expect(await readFile(path.join(project, 'made', 'y', 'z.txt'), 'utf8')).toBe('ok');
    await expect(lstat(path.join(project, 'made', 'x'))).rejects.toThrow();
  });

  it('ConfinedDirectory children cannot be tricked the same way', async () => {
    await using root = await allowed.openDirectory('.');
    expect((await refusal(root.openFile('nope/../link-out'))).code).toBe('PATH_NOT_FOUND');
    expect((await refusal(root.writeFile('nope/../link-out', 'x', { createParents: true }))).code).toBe(
      'PATH_NOT_ALLOWED',
    );
    await using checkout = await ConfinedDirectory.confinedTo(path.join(project, 'sub'));
    // Lexically outside the checkout already: refused as outside.
    expect((await refusal(checkout.openFile('nope/../../a.txt'))).code).toBe('PATH_NOT_ALLOWED');
    expect((await refusal(checkout.writeFile('nope/../../a.txt', 'x', { createParents: true }))).code).toBe(
      'PATH_NOT_ALLOWED',
    );
    expect(await readFile(path.join(project, 'a.txt'), 'utf8')).toBe('alpha');
  });
});
