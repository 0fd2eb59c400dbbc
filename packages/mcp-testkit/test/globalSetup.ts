// Builds the fixture server the way every server's bin is built, into test/fixture/dist (not the
// package's own dist, which holds the testkit itself).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function buildFixture(): void {
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(
    process.execPath,
    ['../../scripts/buildServer.mjs', 'test/fixture/bin.ts', 'test/fixture/dist'],
    {
      cwd: packageDir,
      stdio: 'inherit',
    },
  );
}
