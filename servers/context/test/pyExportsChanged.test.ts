// change_impact's changed exported declarations for Python, against the standard library's `ast`
// (test/oracles/pyexports.py): Debian's sources of requests and pytest, committed to a temporary repository,
// edited at test time (a value, a comment, a def renamed, added or deleted, a name dropped from `__all__`)
// and committed; for every edited module, ours equal the names whose AST differs plus those added and
// removed, in both directions (edited against base, base against edited).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  changedExports,
  disagreements,
  historyRepository,
  kinds,
  oracleChanges,
  seeded,
} from './exportsDifferential.js';

const oracle = fileURLToPath(new URL('./oracles/pyexports.py', import.meta.url));
const PACKAGES = ['requests', '_pytest', 'pytest'].map((name) => `/usr/lib/python3/dist-packages/${name}`);
const havePython = PACKAGES.every((folder) => existsSync(folder));
if (!havePython && process.env.CI) throw new Error('CI must install python3-requests and python3-pytest');

type Answer = Record<string, Record<string, string> | null>;
function ask(root: string, files: string[]): Answer {
  return JSON.parse(
    execFileSync('python3', [oracle, root, ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
  ) as Answer;
}

/** One to three edits, each one a real change ast may or may not see (a comment it must not). */
function edit(text: string, random: (n: number) => number, serial: number): string {
  const lines = text.split('\n');
  const pick = <T>(list: T[]) => list[random(list.length)];
  const edits: Array<() => void> = [
    () => {
      const at = pick(lines.flatMap((line, index) => (/\bNone\b/.test(line) ? [index] : [])));
      if (at !== undefined) lines[at] = lines[at]!.replace(/\bNone\b/, 'False');
    },
    () => {
      const at = random(lines.length);
      const indent = /^\s*/.exec(lines[at] ?? '')?.[0] ?? '';
      lines.splice(at, 0, `${indent}# edited at test time`);
    },
    () => {
      const at = pick(
        lines.flatMap((line, index) => (/^(async )?def \w+|^class \w+/.test(line) ? [index] : [])),
      );
      if (at !== undefined) lines[at] = lines[at]!.replace(/^((?:async )?def|class) (\w+)/, '$1 $2_renamed');
    },
    () => lines.push('', '', `def added_at_test_time_${serial}(value=None):`, '    return value', ''),
    () => lines.push('', `_private_added_${serial} = ${serial}`),
    () => {
      // A top-level def or class deleted, up to the next line at the margin.
      const at = pick(lines.flatMap((line, index) => (/^(async )?def |^class /.test(line) ? [index] : [])));
      if (at === undefined) return;
      let end = at + 1;
      while (end < lines.length && !/^[^\s#)]/.test(lines[end]!)) end++;
      lines.splice(at, end - at);
    },
    () => {
      const at = lines.findIndex((line) => /^__all__\s*=/.test(line));
      if (at < 0) return;
      for (let index = at; index < Math.min(lines.length, at + 200); index++) {
        const dropped = lines[index]!.replace(/(["'])\w+\1,\s*/, '');
        if (dropped !== lines[index]) {
          lines[index] = dropped;
          return;
        }
      }
    },
  ];
  for (let count = 1 + random(3); count > 0; count--) edits[random(edits.length)]!();
  return lines.join('\n');
}

describe.skipIf(!havePython)('Python: changed exports equal ast’s', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it('requests and pytest edited at test time, both directions', { timeout: 600_000 }, async () => {
    const base = new Map<string, string>();
    for (const folder of PACKAGES)
      for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' }))
        if (file.endsWith('.py') && !file.includes('__pycache__'))
          base.set(`${path.basename(folder)}/${file}`, readFileSync(path.join(folder, file), 'utf8'));
    expect(base.size).toBeGreaterThan(80);
    const random = seeded(24);
    const head = new Map<string, string>();
    let serial = 0;
    for (const [file, text] of base) {
      const edited = edit(text, random, ++serial);
      if (edited !== text) head.set(file, edited);
    }
    const root = historyRepository(base, head);
    roots.push(root);
    const files = [...head.keys()];
    const before = ask(root, files);
    execFileSync('git', ['checkout', '-q', 'edited'], { cwd: root });
    const after = ask(root, files);
    // An edit ast refuses (a deleted def that left a decorator or a dangling block) leaves its file out.
    const parsed = files.filter((file) => before[file] != null && after[file] != null);
    expect(parsed.length).toBeGreaterThan(60);

    const forward = await changedExports(root, 'edited', 'main');
    const backward = await changedExports(root, 'reverted', 'edited');
    expect(disagreements(parsed, forward, (file) => oracleChanges(before[file]!, after[file]!))).toEqual([]);
    expect(disagreements(parsed, backward, (file) => oracleChanges(after[file]!, before[file]!))).toEqual([]);
    // Every kind of change was seen, and files whose edits ast sees no change in (comments, private names).
    const counts = kinds(forward);
    expect(counts.added).toBeGreaterThan(20);
    expect(counts.modified).toBeGreaterThan(20);
    expect(counts.removed).toBeGreaterThan(5);
    expect(
      parsed.filter((file) => oracleChanges(before[file]!, after[file]!).length === 0).length,
    ).toBeGreaterThan(5);
  });
});
