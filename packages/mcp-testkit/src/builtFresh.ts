// A contract run against an old build proves nothing and hides what changed: a check added to the testkit
// since its last build silently does not run, and a server bin built before a change of mcp-common tests the
// old code. So the contract refuses to run when a build is older than a source it is built from.
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REBUILD = 'npx -y pnpm@10.34.9 turbo run build --filter=<server>... --concurrency=1';

/** The TypeScript sources (not tests) under `dir`, recursively. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
    .map((name) => path.join(dir, name));
}

function modified(file: string): number | undefined {
  return statSync(file, { throwIfNoEntry: false })?.mtimeMs;
}

/** The sources of a tsc-built package (src/x.ts → dist/x.js) whose output is missing or older. */
function staleOutputs(packageDir: string): string[] {
  const src = path.join(packageDir, 'src');
  return sourcesUnder(src).filter((file) => {
    const built = path.join(packageDir, 'dist', path.relative(src, file).replace(/\.ts$/, '.js'));
    return (modified(built) ?? Number.NEGATIVE_INFINITY) < (modified(file) ?? 0);
  });
}

/**
 * Throws, naming the files, when the testkit's dist (when it runs from there), mcp-common's dist, or the
 * bundle behind `bin` (a server's dist/bundled.cjs) is older than a source it is built from.
 */
export function assertBuiltFresh(bin: string): void {
  const problems: string[] = [];
  const here = fileURLToPath(import.meta.url);
  const testkitDir = path.resolve(path.dirname(here), '..');
  if (path.basename(path.dirname(here)) === 'dist') {
    problems.push(
      ...staleOutputs(testkitDir).map((file) => `packages/mcp-testkit/${path.relative(testkitDir, file)}`),
    );
  }
  const commonDir = path.resolve(
    path.dirname(createRequire(import.meta.url).resolve('@groundwork/mcp-common')),
    '..',
  );
  problems.push(
    ...staleOutputs(commonDir).map((file) => `packages/mcp-common/${path.relative(commonDir, file)}`),
  );
  const serverDir = path.resolve(path.dirname(bin), '..');
  const bundle = path.join(path.dirname(bin), 'bundled.cjs');
  const bundled = modified(bundle);
  if (bundled !== undefined && modified(path.join(serverDir, 'src')) !== undefined) {
    for (const file of [
      ...sourcesUnder(path.join(serverDir, 'src')),
      ...sourcesUnder(path.join(commonDir, 'src')),
    ]) {
      if ((modified(file) ?? 0) > bundled)
        problems.push(`${path.relative(serverDir, file)} (newer than ${bundle})`);
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `The contract would test an old build: changed since it was built: ${problems.slice(0, 10).join(', ')}${problems.length > 10 ? ` and ${problems.length - 10} more` : ''}. Rebuild first: ${REBUILD}`,
    );
  }
}
