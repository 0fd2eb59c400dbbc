// Bundled into every server bin by buildServer.mjs: loads the libraries the bin shares with every other
// groundwork server (mcp-common, the MCP SDK, zod, pino — `vendor.cjs` beside the bin) through V8's code
// cache. Compiling them is most of a stdio cold start; Node 22 has module.enableCompileCache() for this,
// Node 20 only vm.Script's cachedData. The cache lives beside the bundle (never in a shared temp
// directory: whoever can write a code cache can run code), is keyed by the bundle's size and time (every
// build writes a new one) and the Node version, and is written when a process that found none exits.
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

let vendor;

/** The vendor bundle's modules, by the specifier the server imports them with. */
export function loadVendor() {
  vendor ??= load(fileURLToPath(new URL('./vendor.cjs', import.meta.url)));
  return vendor;
}

function load(file) {
  const source = readFileSync(file, 'utf8');
  // Hashing the source would cost more than the rest of this function; a build never keeps size and time.
  const { size, mtimeMs } = statSync(file);
  // V8 rejects a cache made under other flags (--cpu-prof, --expose-gc…): each set of flags gets its own.
  const flags = hashOf(process.execArgv.join(' '));
  const key = `${size}-${Math.round(mtimeMs)}-${process.version}-${process.arch}-${flags}`;
  const cacheFile = path.join(path.dirname(file), `vendor-${key}.v8cache`);
  const cachedData = readOptional(cacheFile);
  // The wrapper is CommonJS's own, on the source's first line, so stack traces keep their line numbers.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  if (cachedData === undefined || script.cachedDataRejected) {
    // At exit the cache also holds every function this run compiled, not only the top level.
    process.once('exit', () => writeCache(cacheFile, script));
  }
  return module.exports;
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

function writeCache(cacheFile, script) {
  const temporary = `${cacheFile}.${process.pid}`;
  try {
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
  } catch {
    // A read-only install only loses the speed-up.
    rmSync(temporary, { force: true });
  }
}
