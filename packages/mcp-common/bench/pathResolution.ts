// Path resolution cost, before and after descriptor walking, and what one confined read costs against a plain
// one: `npx tsx bench/pathResolution.ts <old module>`.
// The old AllowedPaths (string realpath, retried per missing ancestor) is passed in as a module path, since it
// no longer exists in the tree: `git show 830b6fb:packages/mcp-common/src/allowedPaths.ts` (with toolError.ts).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AllowedPaths } from '../src/files/allowedPaths.js';

interface Resolver {
  resolve(given: string): Promise<unknown>;
}

async function cpuMs(resolver: Resolver, given: string): Promise<string> {
  const before = process.cpuUsage();
  const outcome = await resolver.resolve(given).then(
    () => 'resolved',
    (error: Error) => error.message.slice(0, 40),
  );
  const used = process.cpuUsage(before);
  return `${((used.user + used.system) / 1000).toFixed(1)} ms CPU (${outcome})`;
}

const root = await mkdtemp(path.join(tmpdir(), 'path-bench-'));
const oldModule = process.argv[2];
const current = await AllowedPaths.under(root);
const old =
  oldModule === undefined
    ? undefined
    : await (await import(path.resolve(oldModule))).AllowedPaths.under(root);
for (const kilobytes of [2, 4, 8, 16, 120]) {
  const given = `${'a/'.repeat((kilobytes * 1024) / 2 - 1)}x`;
  const segments = given.split('/').length;
  const oldCost = old === undefined || kilobytes > 16 ? 'not run' : await cpuMs(old, given);
  console.log(
    `${kilobytes} KB, ${segments} missing segments: old ${oldCost}; new ${await cpuMs(current, given)}`,
  );
}
const longest = Array(256).fill('d').join('/');
console.log(`longest allowed (256 missing segments): new ${await cpuMs(current, longest)}`);

// One small file four folders down, read 2,000 times each way (after a warm-up), in microseconds per read.
await mkdir(path.join(root, 'a', 'b', 'c'), { recursive: true });
await writeFile(path.join(root, 'a', 'b', 'c', 'f.txt'), 'x'.repeat(1000));
const folder = await current.openDirectory('a/b/c');
const reads: Array<[string, () => Promise<unknown>]> = [
  ['fs.readFile of the absolute path (no confinement)', () => readFile(path.join(root, 'a/b/c/f.txt'))],
  ['resolve + fs.readFile (the racy way)', async () => readFile(await current.resolve('a/b/c/f.txt'))],
  [
    'openFile + read + close',
    async () => {
      await using file = await current.openFile('a/b/c/f.txt');
      return await file.read({ maxBytes: 1 << 20 });
    },
  ],
  [
    'a folder handle: openFile of a child + read + close',
    async () => {
      await using file = await folder.openFile('f.txt');
      return await file.read({ maxBytes: 1 << 20 });
    },
  ],
];
for (const [name, read] of reads) {
  for (let round = 0; round < 200; round += 1) await read();
  const started = performance.now();
  for (let round = 0; round < 2000; round += 1) await read();
  console.log(`${name}: ${(((performance.now() - started) * 1000) / 2000).toFixed(0)} µs`);
}
await folder.close();
await rm(root, { recursive: true, force: true });
