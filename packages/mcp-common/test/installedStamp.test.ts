// A built bin runs bundled.cjs only while the installed SDK, zod and pino are the files it was built from
// (scripts/serverLoader.mjs). The first start hashes them and stamps what it found; later starts compare
// only that stamp with the file system. Here the built fixture server is installed npm-style (every bundled
// package copied flat into node_modules), and the installs users make are made to it: each must either
// keep the bundle (when nothing differs) or load installed.mjs, however the stamp was left.
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('./filesServer/dist/', import.meta.url));
const DIFFERS = 'the installed copy differs from the one bundled into this server';

interface Vendored {
  name: string;
  parents: number[];
  files: Array<[string, string]>;
}

let work: string;
let app: string;
let vendored: Vendored[];

/** Where each bundled package is installed for the fixture, found as Node's require would. */
function installedRoots(): Map<number, string> {
  const roots = new Map<number, string>([[-1, realpathSync(dist)]]);
  for (let progress = true; progress; ) {
    progress = false;
    for (const [index, { name, parents }] of vendored.entries()) {
      if (roots.has(index) || !parents.every((parent) => roots.has(parent))) continue;
      for (let dir = roots.get(parents[0] as number) as string; ; dir = path.dirname(dir)) {
        const candidate = path.join(dir, 'node_modules', name);
        if (path.basename(dir) !== 'node_modules' && existsSync(path.join(candidate, 'package.json'))) {
          roots.set(index, realpathSync(candidate));
          break;
        }
        if (path.dirname(dir) === dir) throw new Error(`${name} is not installed for the fixture`);
      }
      progress = true;
    }
  }
  return roots;
}

beforeAll(async () => {
  work = realpathSync(await mkdtemp(path.join(tmpdir(), 'installed-stamp-')));
  vendored = JSON.parse(await readFile(path.join(dist, 'vendor.json'), 'utf8'));
  app = path.join(work, 'app');
  const roots = installedRoots();
  for (const [index, { name }] of vendored.entries()) {
    await cp(roots.get(index) as string, path.join(app, 'node_modules', name), {
      recursive: true,
      dereference: true,
    });
  }
  await withNpmTimes(path.join(app, 'node_modules'));
  const server = path.join(app, 'node_modules', 'fixture-server', 'dist');
  await cp(dist, server, {
    recursive: true,
    filter: (source) => !/\.(verified|v8cache)$/.test(source),
  });
  await mkdir(path.join(work, 'allowed'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Starts the installed bin, has the bundle answer initialize, and returns what it said on stderr. */
function start(root = app): Promise<string> {
  return new Promise((resolve, reject) => {
    const bin = path.join(root, 'node_modules', 'fixture-server', 'dist', 'bin.js');
    const child = spawn(process.execPath, [bin, '--allowed-dir', path.join(work, 'allowed')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    let answered = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (!answered && chunk.includes('"protocolVersion"')) {
        answered = true;
        child.stdin.end();
      }
    });
    child.on('error', reject);
    // This install holds only the bundled packages, too few for installed.mjs (the SDK imports ajv…): a
    // start that says it loads installed.mjs need not answer.
    child.on('exit', () =>
      answered || stderr.includes(DIFFERS) ? resolve(stderr) : reject(new Error(`no answer: ${stderr}`)),
    );
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'stamp', version: '0' },
        },
      })}\n`,
    );
  });
}

/** The stamp a start left beside the bundle (its inode changes each time a start rewrites it). */
async function stampOf(root = app): Promise<number | undefined> {
  const server = path.join(root, 'node_modules', 'fixture-server', 'dist');
  const name = (await readdir(server)).find((file) => file.endsWith('.verified'));
  return name === undefined ? undefined : (await stat(path.join(server, name))).ino;
}

async function forgetStamp(): Promise<void> {
  const server = path.join(app, 'node_modules', 'fixture-server', 'dist');
  for (const name of await readdir(server)) {
    if (name.endsWith('.verified')) await rm(path.join(server, name));
  }
}

/** npm leaves every installed file with one fixed time (as in its tarballs); so do these installs. */
const NPM_TIME = new Date('1985-10-26T08:15:00Z');
async function withNpmTimes(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) await utimes(path.join(entry.parentPath, entry.name), NPM_TIME, NPM_TIME);
  }
}

/** A copy of zod's folder at `to` whose first bundled file differs in one byte: same size, same time. */
async function patchedZod(to: string, from = path.join(app, 'node_modules', 'zod')): Promise<void> {
  const zod = vendored.find(({ name }) => name === 'zod') as Vendored;
  const [file] = zod.files[0] as [string, string];
  await cp(from, to, { recursive: true });
  const target = path.join(to, file);
  const bytes = await readFile(target);
  expect(bytes.at(-1)).toBe(0x0a);
  bytes[bytes.length - 1] = 0x20; // the last newline becomes a space: valid JavaScript, same size
  await writeFile(target, bytes);
  await withNpmTimes(to);
}

describe('the stamp of an installed bundle', () => {
  it('keeps the bundle for the install it was built from, and a second start only reads the stamp', async () => {
    expect(await start()).not.toContain(DIFFERS);
    const stamp = await stampOf();
    expect(stamp).toBeDefined();
    expect(await start()).not.toContain(DIFFERS);
    expect(await stampOf()).toBe(stamp);
  });

  it('sees a patched copy installed nearer (a nested node_modules), and its removal', async () => {
    await start();
    const nested = path.join(app, 'node_modules', '@modelcontextprotocol', 'sdk', 'node_modules', 'zod');
    await patchedZod(nested);
    expect(await start()).toContain(`zod: ${DIFFERS}`);
    await rm(path.join(app, 'node_modules', '@modelcontextprotocol', 'sdk', 'node_modules'), {
      recursive: true,
    });
    expect(await start()).not.toContain(DIFFERS);
  });

  it('sees a package reinstalled with a same-size file and the same time (npm), or re-linked (pnpm)', async () => {
    await start();
    const zod = path.join(app, 'node_modules', 'zod');
    const original = path.join(work, 'zod-original');
    await rename(zod, original);
    // npm: the folder replaced by the new version's files.
    await patchedZod(zod, original);
    expect(await start()).toContain(`zod: ${DIFFERS}`);
    await rm(zod, { recursive: true });
    await rename(original, zod);
    expect(await start()).not.toContain(DIFFERS);
    // pnpm: the package's link points at another folder of the store.
    const store = path.join(work, 'store');
    await patchedZod(path.join(store, 'zod-patched'));
    await rename(zod, path.join(store, 'zod'));
    await symlink(path.join(store, 'zod'), zod);
    await forgetStamp(); // stamped afresh: zod's files are recorded where the link leads
    expect(await start()).not.toContain(DIFFERS);
    await rm(zod);
    await symlink(path.join(store, 'zod-patched'), zod);
    expect(await start()).toContain(`zod: ${DIFFERS}`);
    await rm(zod);
    await rename(path.join(store, 'zod'), zod);
  });

  it('sees a file rewritten in place with the same size and its time put back', async () => {
    await start();
    const zod = vendored.find(({ name }) => name === 'zod') as Vendored;
    const target = path.join(app, 'node_modules', 'zod', (zod.files[0] as [string, string])[0]);
    const original = await readFile(target);
    const { atime, mtime, ino } = await stat(target);
    const bytes = Buffer.from(original);
    bytes[bytes.length - 1] = 0x20;
    // Same file (inode), same size, same time: only its change time says it was written.
    await writeFile(target, bytes);
    await utimes(target, atime, mtime);
    expect((await stat(target)).ino).toBe(ino);
    try {
      expect(await start()).toContain(`zod: ${DIFFERS}`);
    } finally {
      await writeFile(target, original);
      await utimes(target, atime, mtime);
    }
    expect(await start()).not.toContain(DIFFERS);
  });

  it('checks afresh when the installed package is moved or copied, stamp and all', async () => {
    await start();
    const stamp = await stampOf();
    // A copy (cp -a, a container image layer…) whose zod then differs from the original's.
    const copy = path.join(work, 'copy');
    await cp(app, copy, { recursive: true, preserveTimestamps: true });
    await rm(path.join(copy, 'node_modules', 'zod'), { recursive: true });
    await patchedZod(path.join(copy, 'node_modules', 'zod'));
    expect(await start(copy)).toContain(`zod: ${DIFFERS}`);
    await rm(copy, { recursive: true });
    // Moved: checked where it now is, and stamped there.
    const moved = path.join(work, 'moved');
    await rename(app, moved);
    try {
      expect(await start(moved)).not.toContain(DIFFERS);
      expect(await stampOf(moved)).not.toBe(stamp);
    } finally {
      await rename(moved, app);
    }
  });
});
