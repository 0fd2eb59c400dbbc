// Builds the confinement fixture server the way every server's bin is built, into test/filesServer/dist.
// Unit runs (`--dir src`) need no server.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

export default function buildFixture(project: TestProject): void {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const dir = project.config.dir;
  if (dir !== undefined && path.resolve(project.config.root, dir) === path.join(packageDir, 'src')) return;
  execFileSync(
    process.execPath,
    ['../../scripts/buildServer.mjs', 'test/filesServer/bin.ts', 'test/filesServer/dist'],
    { cwd: packageDir, stdio: 'inherit' },
  );
}
