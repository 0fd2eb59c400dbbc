// Builds a server's bin as one ESM bundle (lazy chunks for what only some transports need), so a stdio
// start loads as little as possible. Run from a server's folder: `node ../../scripts/buildServer.mjs`.
import { chmod, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const root = process.cwd();
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const entry = process.argv[2] ?? 'src/bin.ts';
// A second argument builds elsewhere (mcp-testkit builds its fixture server without touching its own dist).
const outdir = path.resolve(root, process.argv[3] ?? 'dist');
// Shared scaffolding and the libraries it hands tools (zod) are bundled; a server's own dependencies
// (native addons, wasm, large optional parsers) stay external and load when a tool first needs them.
const bundled = new Set(['@groundwork/mcp-common', 'zod']);
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !bundled.has(name));

await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: [entry],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
  banner: {
    // Bundled CommonJS dependencies call require(); ESM has none unless we make one.
    js: "import { createRequire as __groundworkRequire } from 'node:module'; const require = __groundworkRequire(import.meta.url);",
  },
});
await chmod(path.join(outdir, path.basename(entry).replace(/\.ts$/, '.js')), 0o755);
