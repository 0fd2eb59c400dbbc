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

/**
 * Start-up time is mostly the parsing and evaluation of bundled code, so code that no groundwork server
 * runs stays out of the bundle (measured by packages/mcp-common/bench):
 * - zod's error messages in 40-odd languages (a third of zod's size); `en` stays, and asking for
 *   another locale throws an error that says so;
 * - the SDK's Ajv validator, which the SDK uses only to check a client's answer to an elicitation (no
 *   groundwork tool elicits); using it throws an error that says so.
 */
const leanBundle = {
  name: 'lean-bundle',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const names = [...source.matchAll(/export \{ default as (\w+) \} from "\.\/[\w-]+\.js";/g)].map(
        (m) => m[1],
      );
      const others = names.filter((name) => name !== 'en');
      const stubs = others.map(
        (name) =>
          `export function ${name}() { throw new Error("zod's '${name}' locale is not bundled into groundwork servers; only 'en' is."); }`,
      );
      return { contents: [`export { default as en } from './en.js';`, ...stubs].join('\n'), loader: 'js' };
    });
    builder.onLoad(
      { filter: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]validation[\\/]ajv-provider\.js$/ },
      () => ({
        contents: `export class AjvJsonSchemaValidator {
  getValidator() {
    throw new Error('JSON Schema validation of elicitation answers is not bundled into groundwork servers.');
  }
}`,
        loader: 'js',
      }),
    );
  },
};

await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: [entry],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: names stay readable in logged stack traces, and mangling them bought no
  // measurable start-up time.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  external,
  plugins: [leanBundle],
  logLevel: 'warning',
  banner: {
    // Bundled CommonJS dependencies call require(); ESM has none unless we make one.
    js: "import { createRequire as __groundworkRequire } from 'node:module'; const require = __groundworkRequire(import.meta.url);",
  },
});
await chmod(path.join(outdir, path.basename(entry).replace(/\.ts$/, '.js')), 0o755);
