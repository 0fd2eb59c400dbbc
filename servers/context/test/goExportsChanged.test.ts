// change_impact's changed exported declarations for Go, against the Go toolchain's go/parser, go/ast and
// go/format (test/oracles/goexports): Debian's golang-*-dev module sources committed to a temporary repository,
// edited at test time (a literal, a comment, a func renamed, added or deleted, a constant slipped into an
// iota group) and committed; for every edited file, ours equal the oracle's, in both directions.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
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
import { CORPUS, GOCODE, goEnvironment, haveGoCorpus } from './goCorpus.js';

const oracleSource = fileURLToPath(new URL('./oracles/goexports/main.go', import.meta.url));

/** A const spec whose values use iota, inside a group. */
const IOTA = /^\t\w+(\s+[\w.]+)?\s*=.*\biota\b/;
const hasIota = (text: string) => new RegExp(IOTA.source, 'm').test(text);

/** One to three edits; the oracle tells which exports each one changed. */
function edit(text: string, random: (n: number) => number, serial: number): string {
  const lines = text.split('\n');
  const pick = (test: RegExp) => {
    const found = lines.flatMap((line, index) => (test.test(line) ? [index] : []));
    return found[random(found.length)];
  };
  const edits: Array<() => void> = [
    () => {
      const at = pick(/\b0\b/);
      if (at !== undefined) lines[at] = lines[at]!.replace(/\b0\b/, '1');
    },
    () => lines.splice(random(lines.length), 0, '// edited at test time'),
    () => {
      const at = pick(/^func (\([^)]*\) )?\w+/);
      if (at !== undefined) lines[at] = lines[at]!.replace(/^(func (?:\([^)]*\) )?)(\w+)/, '$1$2Renamed');
    },
    () =>
      lines.push(
        '',
        `func AddedAtTestTime${serial}() int { return ${serial} }`,
        `func addedAtTestTime${serial}() {}`,
      ),
    () => {
      // A top-level func deleted, through its closing brace at the margin.
      const at = pick(/^func /);
      if (at === undefined) return;
      let end = at;
      if (!lines[at]!.endsWith('}')) while (end < lines.length - 1 && lines[end] !== '}') end++;
      lines.splice(at, end - at + 1);
    },
    () => {
      const at = pick(IOTA);
      if (at !== undefined) lines.splice(at + 1, 0, `\tInsertedAtTestTime${serial}`);
    },
  ];
  for (let count = 1 + random(3); count > 0; count--) edits[random(edits.length)]!();
  // Few files have iota groups: each one that does gets a constant slipped in.
  edits[edits.length - 1]!();
  return lines.join('\n');
}

describe.skipIf(!haveGoCorpus)('Go: changed exports equal go/ast’s', () => {
  const temporary: string[] = [];
  afterAll(() => {
    for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
  });

  it('Debian module sources edited at test time, both directions', { timeout: 600_000 }, async () => {
    const tools = mkdtempSync(path.join(os.tmpdir(), 'goexports-'));
    temporary.push(tools);
    const env = goEnvironment(path.join(tools, 'gopath'));
    const oracle = path.join(tools, 'goexports');
    execFileSync('go', ['build', '-o', oracle, oracleSource], { env, cwd: tools });

    const base = new Map<string, string>();
    for (const module of CORPUS)
      for (const file of readdirSync(path.join(GOCODE, module), { recursive: true, encoding: 'utf8' }))
        if (file.endsWith('.go'))
          base.set(`${module}/${file}`, readFileSync(path.join(GOCODE, module, file), 'utf8'));
    expect(base.size).toBeGreaterThan(250);
    // change_impact compares the first 200 changed source files: edit 180 of them.
    const random = seeded(24);
    const candidates = [...base.keys()].sort(
      (a, b) => Number(hasIota(base.get(b)!)) - Number(hasIota(base.get(a)!)),
    );
    let iotaFiles = candidates.filter((file) => hasIota(base.get(file)!)).length;
    expect(iotaFiles).toBeGreaterThan(5);
    const head = new Map<string, string>();
    while (head.size < 180) {
      // The files with iota groups first, then any.
      const file = candidates.splice(iotaFiles-- > 0 ? 0 : random(candidates.length), 1)[0]!;
      const edited = edit(base.get(file)!, random, head.size + 1);
      if (edited !== base.get(file)) head.set(file, edited);
    }
    const root = historyRepository(base, head);
    temporary.push(root);
    const files = [...head.keys()];
    type Answer = Record<string, Record<string, string> | null>;
    const ask = () =>
      JSON.parse(
        execFileSync(oracle, [root, ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
      ) as Answer;
    const before = ask();
    execFileSync('git', ['checkout', '-q', 'edited'], { cwd: root });
    const after = ask();
    const parsed = files.filter((file) => before[file] != null && after[file] != null);
    expect(parsed.length).toBeGreaterThan(150);

    const forward = await changedExports(root, 'edited', 'main');
    const backward = await changedExports(root, 'reverted', 'edited');
    expect(disagreements(parsed, forward, (file) => oracleChanges(before[file]!, after[file]!))).toEqual([]);
    expect(disagreements(parsed, backward, (file) => oracleChanges(after[file]!, before[file]!))).toEqual([]);
    const counts = kinds(forward);
    expect(counts.added).toBeGreaterThan(30);
    expect(counts.modified).toBeGreaterThan(30);
    expect(counts.removed).toBeGreaterThan(10);
    expect(
      parsed.filter((file) => oracleChanges(before[file]!, after[file]!).length === 0).length,
    ).toBeGreaterThan(5);
  });
});
