// Builds the fixture server the way every server's bin is built, into test/fixture/dist (not the
// package's own dist, which holds the testkit itself). Unit runs (`--dir src`) need no server.
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
    ['../../scripts/buildServer.mjs', 'test/fixture/bin.ts', 'test/fixture/dist'],
    {
      cwd: packageDir,
      stdio: 'inherit',
    },
  );
}
