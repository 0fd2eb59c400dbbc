// The tool listing as the build wrote it. Turning every tool's zod schemas into JSON Schema is a pure
// function of the code, and the costliest part of answering a first tools/list, so scripts/buildServer.mjs
// computes it once — by starting the built server and asking for it — and writes it beside the bin as
// `tools.json`, stamped with the build's id, which the build also compiles into bundled.cjs as
// __GROUNDWORK_BUILD__. A server whose code has no id (run from source: tests, tsx; installed.mjs, which runs
// the installed zod rather than the bundled one) or whose tools.json is missing, from another build, or names
// other tools computes the listing itself.
import { readFileSync } from 'node:fs';

declare const __GROUNDWORK_BUILD__: string | undefined;

/** The file's name in a built server's dist/, beside the code that reads it. */
const BUILT_LISTING_FILE = 'tools.json';

/** The listing of `names` (in that order) written by this code's build, or undefined. */
export function builtListing<Listing extends { name: string }>(
  names: readonly string[],
  build: string | undefined = typeof __GROUNDWORK_BUILD__ === 'string' ? __GROUNDWORK_BUILD__ : undefined,
  file: URL = new URL(`./${BUILT_LISTING_FILE}`, import.meta.url),
): readonly Listing[] | undefined {
  if (build === undefined) return undefined;
  let written: { build?: unknown; tools?: unknown } | null;
  try {
    written = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (written?.build !== build || !Array.isArray(written.tools)) return undefined;
  const tools = written.tools as Listing[];
  const same = tools.length === names.length && tools.every((tool, index) => tool?.name === names[index]);
  return same ? tools : undefined;
}
