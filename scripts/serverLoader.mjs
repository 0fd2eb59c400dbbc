// Bundled into every server bin by buildServer.mjs: starts the server. Most of a stdio cold start is
// compiling JavaScript, and Node 20 caches compiled code only for a vm.Script given `cachedData` (Node 22
// has module.enableCompileCache() for this; ESM code gets no cache on Node 20 at all). So the build makes
// the whole server — its own code, mcp-common, the MCP SDK, zod, pino — one CommonJS file, `bundled.cjs`
// beside the bin, and this loader runs it through V8's code cache. The cache lives beside the bundle (never
// in a shared temp directory: whoever can write a code cache can run code), is keyed by the bundle's size
// and time (every build writes a new one; npm gives every file one fixed time, but replaces a package's
// folder whole, caches included, when it installs another version), the Node version and flags, and is
// written when a process that found none exits. The bin itself is CommonJS too (dist/package.json says so):
// Node starts a CommonJS entry a few milliseconds sooner than an ES module. This file is written as an ES
// module but only ever runs bundled as that CommonJS bin, hence `__dirname` and `require`.
//
// bundled.cjs is used only while the installed SDK, zod, pino… are the files it was built from (listed in
// vendor.json with their SHA-256): after an override, an upgrade or a patch of one of them, the bin loads
// `installed.mjs` — the same server code as ESM, with every dependency imported from node_modules — as any
// unbundled program would. The first start after an install finds each package as Node's resolution would
// and hashes its files; it leaves a stamp beside the bundle listing what it looked at (each file's size,
// times and inode, where each package was found, where it was not), so later starts only `stat` those paths.
import { readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

/** Node's modules a server loads by its first answer (see startServer). */
const PRELOADED_BUILTINS = [
  'node:child_process',
  'node:crypto',
  'node:diagnostics_channel',
  'node:fs/promises',
  'node:module',
  'node:net',
  'node:os',
  'node:perf_hooks',
  'node:readline',
  'node:stream',
  'node:string_decoder',
];

/**
 * Runs the server: the code-cached bundle when the installed dependencies are the bundled ones. `v8Flags`
 * (the server's package.json "groundwork.v8Flags") are set first, before anything is compiled: V8 refuses a
 * code cache made under other flags, so a flag set later (when a grammar first loads, say) would make every
 * cache written at exit one that the next start rejects. build sets `--liftoff-only`: tree-sitter's grammars
 * are large wasm modules whose hot functions V8 otherwise recompiles with TurboFan while a first call parses
 * (500 Groovy scripts: 200 ms of CPU in a fresh process, 40 ms with Liftoff's code alone, which parses as
 * fast once warm). build and context set `--interrupt-budget=540672` (8× V8's default): a first call runs
 * most of its functions a few hundred times, and V8 otherwise spends much of that call optimising them with
 * TurboFan for a speed-up the call is over before it sees (context's cold project_tree on 1,000 files 820 →
 * 610 ms CPU; build's first build_workspace on 500 Gradle modules ≈ 20 % less); hot functions are still
 * optimised, later, so warm calls cost a little more (build's 20 → 30 ms).
 */
export async function startServer(v8Flags = []) {
  if (v8Flags.length > 0) {
    // Node compiles its own modules from a code cache built into the binary, which V8 also keys by its flags:
    // one first required after the flags are set compiles afresh (those below: ≈ 30 ms of CPU, on the main
    // thread, in every fresh process). So the ones every server loads by its first answer — the stdio
    // transport, crypto, git's child processes, the file handles — are required before, with their cache.
    for (const builtin of PRELOADED_BUILTINS) require(builtin);
    const v8 = require('node:v8');
    for (const flag of v8Flags) v8.setFlagsFromString(flag);
  }
  const bundle = path.join(__dirname, 'bundled.cjs');
  const differs = installedDiffers(bundle);
  if (differs === undefined) return run(bundle, v8Flags);
  process.stderr.write(
    `${differs}: the installed copy differs from the one bundled into this server; loading the installed packages (a slower start).\n`,
  );
  await import(pathToFileURL(path.join(__dirname, 'installed.mjs')).href);
}

/**
 * Undefined when every bundled package found from this directory is the one bundled.cjs holds (a package
 * not installed at all, as in a workspace that only builds, leaves the bundle to serve); otherwise the
 * name of the first that differs.
 */
function installedDiffers(bundle) {
  const dir = path.dirname(bundle);
  const { size, mtimeMs } = statSync(bundle);
  const stampFile = path.join(dir, `bundled-${size}-${Math.round(mtimeMs)}.verified`);
  if (stampHolds(dir, readOptional(stampFile)?.toString())) return undefined;
  let packages;
  try {
    packages = JSON.parse(readFileSync(path.join(dir, 'vendor.json'), 'utf8'));
  } catch {
    return undefined; // a build that bundles nothing third-party
  }
  const stamp = { dir: realpathSync.native(dir), found: [], absent: [], files: [] };
  const roots = new Map([[-1, stamp.dir]]);
  for (let progress = true; progress; ) {
    progress = false;
    for (const [index, { name, parents }] of packages.entries()) {
      if (roots.has(index) || !parents.every((parent) => roots.has(parent))) continue;
      // Where the installed packages that import it find it (a parent not installed looks nowhere).
      const found = new Set(
        parents
          .map((parent) => roots.get(parent))
          .filter((root) => root !== undefined)
          .map((root) => lookUp(name, root, stamp))
          .filter((root) => root !== undefined),
      );
      if (found.size > 1) return name; // the bundle has one copy where the install has several
      roots.set(index, [...found][0]);
      progress = true;
    }
  }
  // Each installed package's package.json (its version) and every file bundled from it.
  const files = [];
  for (const [index, { name, files: bundled }] of packages.entries()) {
    const root = roots.get(index);
    if (root === undefined) continue;
    files.push({ index, name, file: path.join(root, 'package.json') });
    for (const [file, sha256] of bundled) files.push({ name, file: path.join(root, file), sha256 });
  }
  const { createHash } = require('node:crypto');
  for (const { index, name, file, sha256 } of files) {
    // Stated before it is read: a file changed while it is hashed then fails the next start's comparison.
    let signature;
    let content;
    try {
      signature = signatureOf(file);
      content = readFileSync(file);
    } catch {
      return name;
    }
    const same =
      sha256 === undefined
        ? JSON.parse(content.toString('utf8')).version === packages[index].version
        : createHash('sha256').update(content).digest('hex') === sha256;
    if (!same) return name;
    stamp.files.push([file, signature]);
  }
  writeAtomically(stampFile, JSON.stringify(stamp));
  return undefined;
}

/**
 * Whether what a first start verified is still so: this directory is where it was, each package is found
 * where it was (and nowhere nearer), and each file has the size, times and inode it had.
 */
function stampHolds(dir, text) {
  if (text === undefined) return false;
  try {
    const { dir: stamped, found, absent, files } = JSON.parse(text);
    if (realpathSync.native(dir) !== stamped) return false;
    for (const file of absent) if (statSync(file, { throwIfNoEntry: false }) !== undefined) return false;
    for (const [candidate, root] of found) if (realpathSync.native(candidate) !== root) return false;
    for (const [file, signature] of files) if (signatureOf(file) !== signature) return false;
    return true;
  } catch {
    return false; // a path gone, or a stamp from an older loader
  }
}

/**
 * A file's size, inode and times. npm gives every file it installs one fixed modification time, and a
 * freed inode may be handed to the next file written, so the change time — which only the kernel sets, on
 * every write, rename or link — is what tells a file rewritten in place, or a new file on an old inode.
 */
function signatureOf(file) {
  const { size, mtimeMs, ctimeMs, ino } = statSync(file);
  return `${size}:${mtimeMs}:${ctimeMs}:${ino}`;
}

/**
 * Where Node's require finds package `name` from directory `from` (its real path), if anywhere; every
 * place looked at goes into the stamp.
 */
function lookUp(name, from, stamp) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (path.basename(dir) !== 'node_modules') {
      const candidate = path.join(dir, 'node_modules', name);
      const manifest = path.join(candidate, 'package.json');
      if (statSync(manifest, { throwIfNoEntry: false }) !== undefined) {
        const root = realpathSync.native(candidate);
        stamp.found.push([candidate, root]);
        return root;
      }
      stamp.absent.push(manifest);
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Runs bundled.cjs as Node runs a CommonJS module, plus two things a vm.Script lacks: `import()` (Node 20
 * gives a vm.Script none without an experimental flag; the build turns the bundle's dynamic imports of
 * external packages into calls to `_gwImp`, this module's own import, which resolves from the same
 * directory) and `import.meta.url` (`_gwUrl`, for the server's own code).
 */
function run(file, v8Flags) {
  const source = readFileSync(file, 'utf8');
  // Hashing the source would cost more than the rest of this function; a build never keeps size and time.
  const { size, mtimeMs } = statSync(file);
  // V8 rejects a cache made under other flags (--cpu-prof, --expose-gc…): each set of flags gets its own.
  const flags = hashOf([...process.execArgv, ...v8Flags].join(' '));
  const key = `${size}-${Math.round(mtimeMs)}-${process.version}-${process.arch}-${flags}`;
  const cacheFile = path.join(path.dirname(file), `${path.basename(file, '.cjs')}-${key}.v8cache`);
  const cachedData = readOptional(cacheFile);
  // The wrapper is on the source's first line, so stack traces keep their line numbers.
  const wrapped = `(function (exports, require, module, __filename, __dirname, _gwImp, _gwUrl) {${source}\n})`;
  const script = new vm.Script(wrapped, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const module = { exports: {} };
  script.runInThisContext()(
    module.exports,
    require('node:module').createRequire(file),
    module,
    file,
    path.dirname(file),
    (specifier) => import(specifier),
    pathToFileURL(file).href,
  );
  if (cachedData === undefined || script.cachedDataRejected) {
    // At exit the cache also holds every function this run compiled, not only the top level.
    process.once('exit', () => writeAtomically(cacheFile, script.createCachedData()));
  }
}

/** A short, stable name for a string (FNV-1a), cheaper than node:crypto for a file name. */
function hashOf(text) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++)
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(36);
}

function readOptional(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeAtomically(file, data) {
  const temporary = `${file}.${process.pid}`;
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  } catch {
    // A read-only install only loses the speed-up.
    rmSync(temporary, { force: true });
  }
}
