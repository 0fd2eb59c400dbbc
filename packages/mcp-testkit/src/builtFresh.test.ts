import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertBuiltFresh } from './builtFresh.js';

let server: string | undefined;
afterEach(async () => {
  if (server !== undefined) await rm(server, { recursive: true, force: true });
});

/** A server folder whose src/tool.ts was changed `sourceAge` seconds ago and whose bundle `bundleAge` ago. */
async function serverBuilt(sourceAge: number, bundleAge: number): Promise<string> {
  server = await mkdtemp(path.join(tmpdir(), 'built-fresh-'));
  await mkdir(path.join(server, 'src'));
  await mkdir(path.join(server, 'dist'));
  const now = Date.now() / 1000;
  const files = {
    'src/tool.ts': sourceAge,
    'src/tool.test.ts': 0,
    'dist/bundled.cjs': bundleAge,
    'dist/bin.js': bundleAge,
  };
  for (const [file, age] of Object.entries(files)) {
    await writeFile(path.join(server, file), '');
    await utimes(path.join(server, file), now - age, now - age);
  }
  return path.join(server, 'dist', 'bin.js');
}

describe('assertBuiltFresh', () => {
  it('refuses a server bundle older than a source, naming it and how to rebuild', async () => {
    const bin = await serverBuilt(10, 60);
    expect(() => assertBuiltFresh(bin)).toThrow(
      /old build: .*src\/tool\.ts \(newer than .*Rebuild first: .*turbo run build/,
    );
  });

  it('lets a bundle built after its sources run (tests do not count)', async () => {
    const bin = await serverBuilt(60, 1);
    expect(() => assertBuiltFresh(bin)).not.toThrow();
  });
});
