// AllowedPaths.resolve against an oracle nobody here wrote: Python's os.path.realpath (test/oracles/realpath.py),
// over random paths mixing existing and missing segments, `.`, `..`, links in and out (relative and absolute),
// dangling links, and absolute starts. Whatever resolve answers (or openFile/openDirectory open) must be the oracle's answer, and resolve must
// refuse as outside only what the oracle puts outside — in particular `nope/../out` (review item 1).
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readlink, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seededRandom } from '../testing/seededRandom.js';
import { ToolError } from '../tools/toolError.js';
import { AllowedPaths } from './allowedPaths.js';

const oracle = fileURLToPath(new URL('../../test/oracles/realpath.py', import.meta.url));
const CASES = 2000;

let base: string;
let root: string;
let writeBase: string;

beforeAll(async () => {
  base = await buildTree();
  root = path.join(base, 'root');
  writeBase = await buildTree();
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
  await rm(writeBase, { recursive: true, force: true });
});

/** base/root (the allowed root) and base/outside, with links in, out, back, absolute and dangling. */
async function buildTree(): Promise<string> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), 'resolve-oracle-')));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'd', 'e'), { recursive: true });
  await mkdir(path.join(outside, 'o'), { recursive: true });
  await writeFile(path.join(root, 'f.txt'), 'f');
  await writeFile(path.join(outside, 's.txt'), 's');
  const links: Array<[string, string]> = [
    ['root/in', 'd'],
    ['root/out', '../outside'],
    ['root/outfile', '../outside/s.txt'],
    ['root/up', '..'],
    ['root/abs', outside],
    ['root/absin', path.join(root, 'd', 'e')],
    ['root/dang', 'd/missing'],
    ['root/dangout', '../outside/missing'],
    ['root/d/e/deepout', '../../../outside/o'],
    ['outside/back', '../root/d'],
  ];
  for (const [at, target] of links) await symlink(target, path.join(base, at));
  return base;
}

function askOracle(treeRoot: string, paths: string[]): string[] {
  const answers = execFileSync('python3', [oracle], {
    input: JSON.stringify({ root: treeRoot, paths }),
    encoding: 'utf8',
  });
  return JSON.parse(answers) as string[];
}

/** Every entry below `directory` with its kind and size (links as their targets), to compare before and after. */
async function snapshot(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries.map(async (entry) => {
      const at = path.join(entry.parentPath, entry.name);
      const stats = await lstat(at);
      const detail = stats.isSymbolicLink() ? await readlink(at) : String(stats.size);
      return `${path.relative(directory, at)} ${stats.mode} ${detail}`;
    }),
  ).then((lines) => lines.sort());
}
const SEGMENTS = [
  ...['d', 'e', 'f.txt', 'o', 's.txt', 'root', 'outside'],
  ...['in', 'out', 'outfile', 'up', 'abs', 'absin', 'dang', 'dangout', 'deepout', 'back'],
  ...['nope', 'zz', 'missing', '.', '..', '..', '..', 'nope', '..'],
];

function randomPath(next: () => number, treeBase: string): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const segments = Array.from({ length: 1 + Math.floor(next() * 7) }, () => pick(SEGMENTS));
  const start = next();
  const prefix = start < 0.7 ? '' : start < 0.85 ? `${treeBase}/root/` : `${treeBase}/`;
  return prefix + segments.join('/');
}

const seed = Number(process.env.GROUNDWORK_RESOLVE_SEED ?? 20261130);

it(`resolve agrees with os.path.realpath on ${CASES} random paths`, async () => {
  const next = seededRandom(seed);
  const paths = [
    'nope/../out',
    'nope/../out/new',
    'nope/x/../../outfile',
    ...Array.from({ length: CASES }, () => randomPath(next, base)),
  ];
  const answers = askOracle(root, paths);
  const allowed = await AllowedPaths.under(root);
  const tally = { inside: 0, refusedOutside: 0, otherRefusals: 0, opened: 0 };
  for (const [index, given] of paths.entries()) {
    const expected = answers[index] as string;
    const oracleInside = allowed.contains(expected);
    const got = await allowed.resolve(given).catch((error: unknown) => {
      expect(error, `${given} (seed ${seed})`).toBeInstanceOf(ToolError);
      return error as ToolError;
    });
    if (typeof got === 'string') {
      expect(got, `${given} (seed ${seed})`).toBe(expected);
      expect(oracleInside).toBe(true);
      tally.inside += 1;
    } else if (got.code === 'PATH_NOT_ALLOWED') {
      expect(oracleInside, `${given} refused as outside, the oracle says ${expected} (seed ${seed})`).toBe(
        false,
      );
      tally.refusedOutside += 1;
    } else {
      // A file used as a folder (`f.txt/..`): the kernel says ENOTDIR where realpath carries on by name.
      expect(got.code, `${given}: ${got.message} (seed ${seed})`).toBe('PATH_NOT_ACCESSIBLE');
      tally.otherRefusals += 1;
    }
    // Inside by the oracle's account is answered, unless a file stands where a folder is needed.
    if (oracleInside && typeof got !== 'string') expect(got.code, given).toBe('PATH_NOT_ACCESSIBLE');
    // The handles walk the same way: whatever they open is where the oracle says, and inside.
    const opened = await allowed
      .openFile(given)
      .catch(() => allowed.openDirectory(given))
      .catch(() => undefined);
    if (opened !== undefined) {
      expect(opened.realPath, `${given} (seed ${seed})`).toBe(expected);
      await opened.close();
      tally.opened += 1;
    }
  }
  // Not vacuous: plenty of answers, plenty of refusals as outside.
  expect(tally.inside).toBeGreaterThan(CASES / 5);
  expect(tally.refusedOutside).toBeGreaterThan(CASES / 5);
  expect(tally.opened).toBeGreaterThan(CASES / 50);
});

it(`writeFile with createParents lands where os.path.realpath says, and never outside, on ${CASES / 2} random paths`, async () => {
  const next = seededRandom(seed + 1);
  const writeRoot = path.join(writeBase, 'root');
  const paths = [
    'nope/../out/new.txt',
    'nope/x/../../outfile',
    ...Array.from({ length: CASES / 2 }, () => randomPath(next, writeBase)),
  ];
  // Asked before any write: a write only turns missing names inside into real ones, which moves no answer.
  const answers = askOracle(writeRoot, paths);
  const outsideBefore = await snapshot(path.join(writeBase, 'outside'));
  const allowed = await AllowedPaths.under(writeRoot);
  const tally = { written: 0, refusedOutside: 0 };
  for (const [index, given] of paths.entries()) {
    const expected = answers[index] as string;
    const written = await allowed.writeFile(given, 'w', { createParents: true }).catch((error: unknown) => {
      expect(error, `${given} (seed ${seed + 1})`).toBeInstanceOf(ToolError);
      return error as ToolError;
    });
    if (!(written instanceof ToolError)) {
      expect(written.realPath, `${given} (seed ${seed + 1})`).toBe(expected);
      expect(allowed.contains(expected)).toBe(true);
      tally.written += 1;
    } else if (written.code === 'PATH_NOT_ALLOWED') {
      expect(allowed.contains(expected), `${given} refused as outside (seed ${seed + 1})`).toBe(false);
      tally.refusedOutside += 1;
    }
  }
  expect(await snapshot(path.join(writeBase, 'outside'))).toEqual(outsideBefore);
  expect(tally.written).toBeGreaterThan(CASES / 10);
  expect(tally.refusedOutside).toBeGreaterThan(CASES / 10);
});
