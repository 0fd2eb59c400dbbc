// Builds a server's bin, so a stdio start compiles as little as possible. Node 20 caches compiled code only
// for a vm.Script given `cachedData`, and ESM gets no cache at all, so the whole server — its own code,
// mcp-common, the SDK, zod, pino — is one CommonJS file, dist/bundled.cjs, which the bin (dist/bin.js, a
// small CommonJS file: serverLoader.mjs) runs through V8's code cache. The build ends by starting the bin
// once over stdio, which writes that cache and the tool listing (tools.json). Run from a server's folder:
// `node ../../scripts/buildServer.mjs [entry] [outdir]`.
//
// The SDK, zod and pino stay real dependencies of the published package (npm audit, overrides and
// patches reach them): dist/vendor.json lists every installed file bundled.cjs was built from, with its
// SHA-256, and serverLoader.mjs uses bundled.cjs only while the installed files are those files. When they
// differ, it loads dist/installed.mjs instead: the same server code as ESM, importing every dependency from
// node_modules. A server's own dependencies (parsers, drivers, native addons, wasm) stay external in both
// and load when a tool first needs them, except those its package.json bundles ("groundwork.bundle").
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { listToolsOverStdio } from './listToolsOverStdio.mjs';

const root = process.cwd();
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const entry = process.argv[2] ?? 'src/bin.ts';
// A second argument builds elsewhere (mcp-testkit builds its fixture server without touching its own dist).
const outdir = path.resolve(root, process.argv[3] ?? 'dist');
const installed = { ...pkg.dependencies, ...pkg.optionalDependencies };
const commonPkg = JSON.parse(
  await readFile(new URL('../packages/mcp-common/package.json', import.meta.url), 'utf8'),
);
const commonDependencies = Object.keys(commonPkg.dependencies ?? {});
// mcp-common is ours and always bundled; what it needs (the SDK, zod, pino) is bundled into bundled.cjs and
// imported from node_modules by installed.mjs. The server's own dependencies stay external in both.
const external = Object.keys(installed).filter(
  (name) => name !== '@groundwork/mcp-common' && !commonDependencies.includes(name),
);
// Server dependencies bundled into bundled.cjs all the same (package.json "groundwork.bundle"): plain
// JavaScript that a first call needs, e.g. build's XML parser. Loaded from node_modules, a package is
// compiled afresh by every process (and an ES module goes through Node's ESM loader, 50-70 ms of CPU for
// fast-xml-parser); in bundled.cjs it shares the code cache, and a dynamic import of it still evaluates it
// only when first called. vendor.json lists its files like the SDK's; installed.mjs imports it as before.
const bundledDependencies = pkg.groundwork?.bundle ?? [];
if (
  !Array.isArray(bundledDependencies) ||
  !bundledDependencies.every((name) => typeof name === 'string' && external.includes(name))
) {
  throw new Error(`${pkg.name}: groundwork.bundle must list names of the server's own dependencies.`);
}
// mcp-common dependencies that only a rare request needs (yaml: the skills folder, read when first asked
// for; gpt-tokenizer: counting an answer that could exceed its budget) stay out of bundled.cjs too, so a
// start never reads them: imported when first needed.
const LAZY_COMMON = ['yaml', 'gpt-tokenizer'];
// What mcp-common needs at run time must be installed with the server (mcp-common is ours and bundled;
// its dependencies are not). A private package (the testkit's fixture, a benchmark) is never installed.
if (!pkg.private) {
  const missing = Object.entries(commonPkg.dependencies ?? {}).filter(
    ([name, range]) => installed[name] !== range,
  );
  if (missing.length > 0) {
    throw new Error(
      `${pkg.name}: package.json must declare ${missing.map(([name, range]) => `"${name}": "${range}"`).join(', ')} in dependencies, as packages/mcp-common does (mcp-common is bundled into the bin; its dependencies are installed with the server).`,
    );
  }
}
// Built beside the output and moved into place at the end, so that a bin already running (tests of
// another package, say) never sees a half-built directory.
const staging = `${outdir}.building-${process.pid}`;
const binName = path.basename(entry).replace(/\.ts$/, '.js');
if (['bundled.js', 'installed.js'].includes(binName)) throw new Error(`${entry}: choose another entry name.`);
// Further entry points a server starts itself, e.g. worker threads (package.json "groundwork.entries"); each
// is built as dist/<name>.mjs beside installed.mjs, sharing its chunks, and imports its dependencies.
const entries = pkg.groundwork?.entries ?? [];
// V8 flags the bin sets before it compiles anything (package.json "groundwork.v8Flags"), e.g. build's
// `--liftoff-only` (serverLoader.mjs says why). Set at start, never later: V8 keys its code cache by its flags.
const v8Flags = pkg.groundwork?.v8Flags ?? [];
if (
  !Array.isArray(v8Flags) ||
  !v8Flags.every((flag) => typeof flag === 'string' && /^--[a-z][\w-]*(=\S+)?$/.test(flag))
) {
  throw new Error(`${pkg.name}: groundwork.v8Flags must be a list of V8 flags such as "--liftoff-only".`);
}

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

/**
 * CommonJS has no top-level await, which a bin uses to await runServer(): in the CommonJS bundle, the
 * entry's statements after its imports run as an async function instead (a rejection still ends the
 * process with the error, as an unhandled rejection). Parsed with TypeScript, so nothing is guessed.
 */
const entryPath = path.resolve(root, entry);
const entryAsScript = {
  name: 'entry-as-script',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path !== entryPath) return undefined;
      const { default: ts } = await import('typescript');
      // The shebang goes (the bundle is the body of a function); its line stays, empty.
      const text = (await readFile(args.path, 'utf8')).replace(/^#!.*/, '');
      const { statements } = ts.createSourceFile(args.path, text, ts.ScriptTarget.Latest, true);
      const body = statements.findIndex((statement) => !ts.isImportDeclaration(statement));
      const late = statements.slice(body).find((statement) => ts.isImportDeclaration(statement));
      const exported = statements.find((statement) =>
        statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword),
      );
      if (body !== -1 && late !== undefined) throw new Error(`${entry}: imports must come first.`);
      if (exported !== undefined || statements.some(ts.isExportDeclaration)) {
        throw new Error(`${entry}: an entry exports nothing.`);
      }
      if (body === -1) return { contents: text, loader: 'ts' };
      const at = statements[body].getFullStart();
      // On the last import's line, so line numbers (source maps, stack traces) stay those of the source.
      return { contents: `${text.slice(0, at)}(async () => {${text.slice(at)}\n})();\n`, loader: 'ts' };
    });
  },
};

/**
 * In bundled.cjs, `import.meta.url` is the bundle's own URL (the loader passes it as `_gwUrl`), right for
 * the server's own code, which lives in dist/ both ways; third-party code using import.meta would get
 * someone else's URL, so bundling it fails the build.
 */
const noThirdPartyImportMeta = {
  name: 'no-third-party-import-meta',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]node_modules[\\/].*\.m?js$/ }, async (args) => {
      if ((await readFile(args.path, 'utf8')).includes('import.meta')) {
        throw new Error(`${args.path} uses import.meta; it cannot be bundled into bundled.cjs.`);
      }
      return undefined;
    });
  },
};

await rm(staging, { recursive: true, force: true });
// A failed build leaves nothing behind (after a good one, the staging directory is the output).
process.on('exit', () => rmSync(staging, { recursive: true, force: true }));
// Stamps the code and the tool listing this build writes (builtListing.ts in mcp-common), so a listing from
// another build is never served. Only bundled.cjs carries it: the listing is what its bundled zod computed,
// and installed.mjs runs whatever zod is installed (it loads only when that differs), so it computes its own.
const buildId = randomUUID();
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only for the server's own code: names stay readable in logged stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  logLevel: 'warning',
};

// 1. bundled.cjs: everything but the server's own dependencies. A static import of one becomes require(),
// which Node 20 cannot do for an ESM-only package; those are bundled too (and checked like the SDK).
const bundledFile = path.join(staging, 'bundled.cjs');
const cjsBuild = (externals) =>
  build({
    ...common,
    entryPoints: [entry],
    outfile: bundledFile,
    format: 'cjs',
    external: externals,
    // A third less to read and to load from the code cache, measurably faster once the cache compiles.
    minifyIdentifiers: true,
    define: { __GROUNDWORK_BUILD__: JSON.stringify(buildId), 'import.meta.url': '_gwUrl' },
    // Any other use of import.meta must fail the build, not run with {}.
    logOverride: { 'empty-import-meta': 'error' },
    plugins: [entryAsScript, leanBundle, noThirdPartyImportMeta],
    metafile: true,
    write: false,
  });
const bundledExternal = [
  ...new Set([...external.filter((name) => !bundledDependencies.includes(name)), ...LAZY_COMMON]),
];
let { metafile, outputFiles } = await cjsBuild(bundledExternal);
const esmOnly = [
  ...new Set(
    Object.values(metafile.outputs)
      .flatMap(({ imports }) => imports)
      .filter(({ external: isExternal, kind }) => isExternal && kind === 'require-call')
      .map(({ path: specifier }) =>
        bundledExternal.find((name) => specifier === name || specifier.startsWith(`${name}/`)),
      )
      .filter((name) => name !== undefined && !requirable(name)),
  ),
];
if (esmOnly.length > 0) {
  ({ metafile, outputFiles } = await cjsBuild(bundledExternal.filter((name) => !esmOnly.includes(name))));
}
await writeOutputs(outputFiles, (file, text) =>
  file === bundledFile ? withImportCalls(text, metafile.outputs[path.relative(process.cwd(), file)]) : text,
);
await writeFile(path.join(staging, 'vendor.json'), `${JSON.stringify(await bundledPackages(metafile))}\n`);

// 2. installed.mjs (and the extra entries): the same code as ESM, every dependency from node_modules.
await build({
  ...common,
  entryPoints: [{ in: entry, out: 'installed' }, ...entries],
  entryNames: '[name]',
  outdir: staging,
  // .mjs: dist/package.json makes the bin and bundled.cjs's directory CommonJS.
  outExtension: { '.js': '.mjs' },
  splitting: true,
  format: 'esm',
  external: [...new Set([...external, ...commonDependencies])],
  banner: {
    // Bundled CommonJS code calls require(); ESM has none unless we make one.
    js: "import { createRequire as __groundworkRequire } from 'node:module'; const require = __groundworkRequire(import.meta.url);",
  },
});

// 3. The bin: serverLoader.mjs, which picks one of the two. CommonJS, as Node starts a CommonJS entry a few
// milliseconds sooner than an ES module: dist/package.json says so for the directory, whatever the
// server package's "type" (a failed start is an unhandled rejection, which ends the process with its error).
await build({
  ...common,
  stdin: {
    contents: `import { startServer } from ${JSON.stringify(fileURLToPath(new URL('./serverLoader.mjs', import.meta.url)))};\nstartServer(${JSON.stringify(v8Flags)});\n`,
    resolveDir: root,
    sourcefile: binName,
  },
  outfile: path.join(staging, binName),
  format: 'cjs',
  banner: { js: '#!/usr/bin/env node' },
});
await writeFile(path.join(staging, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
await chmod(path.join(staging, binName), 0o755);
await writeToolListing(path.join(staging, binName));
await moveIntoPlace();

/** Whether Node 20's require() can load package `name` as installed for this server (not ESM-only). */
function requirable(name) {
  let resolved;
  try {
    resolved = createRequire(path.join(root, 'package.json')).resolve(name);
  } catch {
    return false; // no "require" export
  }
  if (resolved.endsWith('.mjs')) return false;
  if (resolved.endsWith('.cjs')) return true;
  for (let dir = path.dirname(resolved); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).type !== 'module';
    } catch {
      // no package.json here; look further up
    }
  }
  return true;
}

/**
 * A vm.Script has no `import()` on Node 20 (without an experimental flag), so the bundle's dynamic imports
 * of external packages call `_gwImp` instead, the loader's own import (same length: source maps stay
 * exact). Exactly the specifiers esbuild reports as external dynamic imports are rewritten.
 */
function withImportCalls(text, output) {
  let result = text;
  const dynamic = new Set(
    output.imports.filter((i) => i.external && i.kind === 'dynamic-import').map((i) => i.path),
  );
  for (const specifier of dynamic) {
    const call = `import(${JSON.stringify(specifier)})`;
    if (!result.includes(call)) throw new Error(`bundled.cjs: expected ${call} in the output.`);
    result = result.replaceAll(call, `_gwImp(${JSON.stringify(specifier)})`);
  }
  if (/\bimport\(/.test(result.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, ''))) {
    throw new Error('bundled.cjs: an import() is left that the loader cannot serve.');
  }
  return result;
}

async function writeOutputs(files, transform) {
  await mkdir(staging, { recursive: true });
  for (const { path: file, text } of files) await writeFile(file, transform(file, text));
}

/**
 * The third-party packages in bundled.cjs, as serverLoader.mjs checks them against what is installed: each
 * package's name, version, the packages that import it (-1: the server's own code, i.e. resolved from
 * dist/) and the SHA-256 of every file of it the bundle was built from (read as installed, before the
 * lean-bundle stubs).
 */
async function bundledPackages(meta) {
  const rootOf = (input) => {
    const at = input.lastIndexOf('node_modules/');
    if (at === -1) return undefined;
    const rest = input.slice(at + 'node_modules/'.length).split('/');
    return input.slice(0, at) + ['node_modules', ...rest.slice(0, rest[0].startsWith('@') ? 2 : 1)].join('/');
  };
  const roots = [
    ...new Set(
      Object.keys(meta.inputs)
        .map(rootOf)
        .filter((root) => root !== undefined),
    ),
  ].sort();
  const indexOf = (input) => {
    const root = rootOf(input);
    return root === undefined ? -1 : roots.indexOf(root);
  };
  const packages = await Promise.all(
    roots.map(async (root) => {
      const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
      return { name: manifest.name, version: manifest.version, parents: new Set(), files: [] };
    }),
  );
  for (const [input, { imports }] of Object.entries(meta.inputs)) {
    const from = indexOf(input);
    if (from !== -1) {
      const file = input.slice(roots[from].length + 1);
      packages[from].files.push([
        file,
        createHash('sha256')
          .update(await readFile(input))
          .digest('hex'),
      ]);
    }
    for (const { path: target, external: isExternal } of imports) {
      const to = isExternal ? -1 : indexOf(target);
      if (to !== -1 && to !== from) packages[to].parents.add(from);
    }
  }
  return packages.map(({ parents, files, ...rest }) => ({
    ...rest,
    parents: [...parents].sort((a, b) => a - b),
    files: files.sort(([a], [b]) => a.localeCompare(b)),
  }));
}

/** Replaces the output with the staging directory; a build finishing at the same moment may win. */
async function moveIntoPlace() {
  for (let attempt = 1; ; attempt++) {
    await rm(outdir, { recursive: true, force: true });
    try {
      return await rename(staging, outdir);
    } catch (error) {
      if (!['ENOTEMPTY', 'EEXIST'].includes(error.code) || attempt === 5) throw error;
    }
  }
}

/**
 * Starts the bin over stdio, initializes it and lists its tools, at the protocol revision whose listing is
 * the whole one (with `execution`), and writes that listing as tools.json for the servers to serve. The
 * same start fills V8's code cache for bundled.cjs. A server that cannot list its tools fails the build.
 */
async function writeToolListing(bin) {
  const tools = await listToolsOverStdio(process.execPath, [bin], {
    clientName: 'build',
    cwd: root,
    protocolVersion: '2025-11-25',
    stderr: 'inherit',
    // A build may run beside many others (turbo, CI on two cores): a start that takes seconds is load, not a fault.
    timeoutMs: 120_000,
  });
  if (tools === undefined) throw new Error(`buildServer: ${bin} did not list its tools over stdio.`);
  await writeFile(path.join(staging, 'tools.json'), `${JSON.stringify({ build: buildId, tools })}\n`);
}
