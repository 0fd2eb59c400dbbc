// Path resolution cost, before and after descriptor walking: `npx tsx bench/pathResolution.ts <old module>`.
// The old AllowedPaths (string realpath, retried per missing ancestor) is passed in as a module path, since it
// no longer exists in the tree: `git show 830b6fb:packages/mcp-common/src/allowedPaths.ts` (with toolError.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AllowedPaths } from '../src/allowedPaths.js';

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
await rm(root, { recursive: true, force: true });
