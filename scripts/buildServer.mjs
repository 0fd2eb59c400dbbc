// Builds a server's bin, so a stdio start loads as little as possible: the server's own code as an ESM
// bundle (dist/bin.js), and what every groundwork server shares (mcp-common, the SDK, zod, pino) as one
// CommonJS bundle (dist/vendor.cjs) that vendorLoader.mjs loads through V8's code cache. The build ends
// by starting the bin once over stdio, which writes that cache. Run from a server's folder:
// `node ../../scripts/buildServer.mjs [entry] [outdir]`.
//
// The SDK, zod and pino stay real dependencies of the published package (npm audit, overrides and
// patches reach them): dist/vendor.json lists every installed file vendor.cjs was built from, with its
// SHA-256, and vendorLoader.mjs uses vendor.cjs only while the installed files are those files. When they
// differ, it loads dist/common.cjs instead (mcp-common alone), which requires the installed packages.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = process.cwd();
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const entry = process.argv[2] ?? 'src/bin.ts';
// A second argument builds elsewhere (mcp-testkit builds its fixture server without touching its own dist).
const outdir = path.resolve(root, process.argv[3] ?? 'dist');
// Shared scaffolding and the libraries it hands tools (zod) are bundled; a server's own dependencies
// (native addons, wasm, large optional parsers) stay external and load when a tool first needs them.
const VENDOR = /^(?:zod|@groundwork\/mcp-common)(?:\/.*)?$/;
const installed = { ...pkg.dependencies, ...pkg.optionalDependencies };
const external = Object.keys(installed).filter((name) => !VENDOR.test(name));
const commonPkg = JSON.parse(
  await readFile(new URL('../packages/mcp-common/package.json', import.meta.url), 'utf8'),
);
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
// Further entry points a server starts itself, e.g. worker threads (package.json "groundwork.entries"); each
// is built beside the bin as dist/<name>.js, sharing its chunks.
const entries = [entry, ...(pkg.groundwork?.entries ?? [])];

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
 * mcp-common dependencies that only a rare request needs (yaml: the skills folder, read when first asked
 * for) are not bundled: their dynamic import becomes a `require` of the installed package when it runs (the
 * vendor bundle runs in vm.Script, where a real `import()` has no loader), so a start never reads them.
 */
const LAZY_COMMON = ['yaml'];
const lazyCommon = {
  name: 'lazy-common',
  setup(builder) {
    const filter = new RegExp(`^(?:${LAZY_COMMON.join('|')})$`);
    builder.onResolve({ filter }, (args) =>
      args.kind === 'dynamic-import'
        ? { path: args.path, namespace: 'lazy-common' }
        : { path: args.path, external: true },
    );
    builder.onLoad({ filter: /.*/, namespace: 'lazy-common' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

await rm(staging, { recursive: true, force: true });
// A failed build leaves nothing behind (after a good one, the staging directory is the output).
process.on('exit', () => rmSync(staging, { recursive: true, force: true }));
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: names stay readable in logged stack traces, and mangling them bought no
  // measurable start-up time.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  external,
  logLevel: 'warning',
};

// 1. Which shared modules (`zod`, `@groundwork/mcp-common`, their subpaths) the server imports.
const shared = new Set();
await build({
  ...common,
  entryPoints: entries,
  outdir: staging,
  write: false,
  format: 'esm',
  sourcemap: false,
  plugins: [
    {
      name: 'find-shared',
      setup(builder) {
        builder.onResolve({ filter: VENDOR }, (args) => {
          shared.add(args.path);
          return { path: args.path, external: true };
        });
      },
    },
  ],
});

// 2. Those modules as one CommonJS bundle (mcp-common's lazy imports of the stdio and HTTP transports
// become lazily run blocks of it), and the names each one exports.
const vendorFile = path.join(staging, 'vendor.cjs');
const specifiers = [...shared].sort();
const commonDependencies = Object.keys(commonPkg.dependencies ?? {});
const vendorEntry = {
  ...common,
  // Everything mcp-common needs is bundled here, though the server declares it too.
  external: external.filter((name) => !commonDependencies.includes(name)),
  stdin: {
    // Imported (not required) so that each package resolves to the same ESM build mcp-common imports.
    contents: [
      ...specifiers.map((specifier, index) => `import * as m${index} from ${JSON.stringify(specifier)};`),
      `export { ${specifiers.map((specifier, index) => `m${index} as ${JSON.stringify(specifier)}`).join(', ')} };`,
    ].join('\n'),
    resolveDir: path.dirname(path.resolve(root, entry)),
    sourcefile: 'vendor.js',
  },
  format: 'cjs',
  // Library internals only (the server's own code keeps its names): a third less to read and to load from
  // the code cache, measurably faster once the cache does the compiling.
  minifyIdentifiers: true,
  // CommonJS has no import.meta: shared code that starts using it must fail the build, not run with {}.
  logOverride: { 'empty-import-meta': 'error' },
  plugins: [leanBundle, lazyCommon],
};
const { metafile } = await build({ ...vendorEntry, outfile: vendorFile, metafile: true });
// The same modules with mcp-common's own dependencies left to the installed packages.
await build({
  ...vendorEntry,
  outfile: path.join(staging, 'common.cjs'),
  external: [...new Set([...external, ...commonDependencies])],
});
await writeFile(path.join(staging, 'vendor.json'), `${JSON.stringify(await bundledPackages(metafile))}\n`);
const vendorExports = createRequire(import.meta.url)(vendorFile);

// 3. The server's own code, importing the shared modules from the vendor bundle.
const loader = fileURLToPath(new URL('./vendorLoader.mjs', import.meta.url));
await build({
  ...common,
  entryPoints: entries,
  entryNames: '[name]',
  outdir: staging,
  splitting: true,
  format: 'esm',
  plugins: [
    {
      name: 'shared-from-vendor',
      setup(builder) {
        builder.onResolve({ filter: VENDOR }, (args) => ({ path: args.path, namespace: 'vendor' }));
        builder.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => {
          const names = Object.keys(vendorExports[args.path]).filter((name) => name !== 'default');
          const lines = [
            `import { loadVendor } from ${JSON.stringify(loader)};`,
            `const module = loadVendor()[${JSON.stringify(args.path)}];`,
            `export const { ${names.join(', ')} } = module;`,
            ...('default' in vendorExports[args.path] ? ['export default module.default;'] : []),
          ];
          return { contents: lines.join('\n'), loader: 'js', resolveDir: path.dirname(loader) };
        });
      },
    },
  ],
  banner: {
    // Bundled CommonJS dependencies call require(); ESM has none unless we make one.
    js: "import { createRequire as __groundworkRequire } from 'node:module'; const require = __groundworkRequire(import.meta.url);",
  },
});
await chmod(path.join(staging, binName), 0o755);
await warmCodeCache(path.join(staging, binName));
await moveIntoPlace();

/**
 * The third-party packages in vendor.cjs, as vendorLoader.mjs checks them against what is installed: each
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

/** Starts the bin over stdio, initializes it and lists its tools, so the code cache holds those paths. */
function warmCodeCache(bin) {
  const requests = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'build', version: '0' },
      },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('"id":2')) child.stdin.end();
    });
    child.on('error', () => resolve());
    child.on('exit', () => {
      clearTimeout(timer);
      if (!output.includes('"id":2'))
        process.stderr.write(`buildServer: ${bin} did not answer over stdio; no code cache was written.\n`);
      resolve();
    });
    child.stdin.write(requests.map((request) => `${JSON.stringify(request)}\n`).join(''));
  });
}
