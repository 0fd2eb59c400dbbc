// What the changed-exports differential tests share: a temporary git repository holding real sources (the
// base commit) and the same sources edited at test time (the head commit, then the reverse on a second
// branch), change_impact's changed declarations per file, and the oracle's answer laid beside them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openGitRepository } from '@groundwork/mcp-common/git';
import { analyzeChangeImpact } from '../src/core/changeImpact/changeImpact.js';
import { ProjectInRepository } from '../src/core/changeImpact/gitChanges.js';
import { describeCodeState } from '../src/core/codeState.js';
import { ProjectIndex } from '../src/core/projectIndex.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'core.hooksPath=/dev/null', '-c', 'user.email=t@t', '-c', 'user.name=t', ...args],
    {
      cwd,
      encoding: 'utf8',
    },
  );

/** A seeded generator: the same edits every run. */
export function seeded(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * n);
  };
}

function write(root: string, files: ReadonlyMap<string, string>): void {
  for (const [file, text] of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

/** `base` on main, `head` (only the files that differ) on `edited`, and `base` again on `reverted`. */
export function historyRepository(
  base: ReadonlyMap<string, string>,
  head: ReadonlyMap<string, string>,
): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'exports-')));
  write(root, base);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'base');
  git(root, 'checkout', '-qb', 'edited');
  write(root, head);
  git(root, 'commit', '-qam', 'edited');
  git(root, 'checkout', '-qb', 'reverted');
  write(root, new Map([...head.keys()].map((file) => [file, base.get(file)!])));
  git(root, 'commit', '-qam', 'reverted');
  return root;
}

/** change_impact on the checked-out branch against `base`: `file → ["added f", "modified C.m", …]`. */
export async function changedExports(
  root: string,
  branch: string,
  base: string,
): Promise<Map<string, string[]>> {
  git(root, 'checkout', '-q', branch);
  using index = new ProjectIndex(root);
  const built = await index.build();
  const repo = await openGitRepository(root, { contains: (p) => p.startsWith(root) });
  const inRepo = new ProjectInRepository(repo, root);
  const state = await describeCodeState(inRepo, built.scan.files);
  const impact = await analyzeChangeImpact(index, built, inRepo, state, { base, bundleTokens: 1000 });
  const byFile = new Map<string, string[]>();
  for (const entry of impact.changed_declarations)
    byFile.set(entry.file, [...(byFile.get(entry.file) ?? []), `${entry.change} ${entry.name}`]);
  for (const list of byFile.values()) list.sort();
  return byFile;
}

/** The changes between two `{name: content}` answers of an oracle, in the same form. */
export function oracleChanges(before: Record<string, string>, after: Record<string, string>): string[] {
  const changes: string[] = [];
  for (const [name, content] of Object.entries(after)) {
    if (!(name in before)) changes.push(`added ${name}`);
    else if (before[name] !== content) changes.push(`modified ${name}`);
  }
  for (const name of Object.keys(before)) if (!(name in after)) changes.push(`removed ${name}`);
  return changes.sort();
}

/** Every file whose two answers differ, with both: an empty list is agreement. */
export function disagreements(
  files: Iterable<string>,
  ours: ReadonlyMap<string, string[]>,
  theirs: (file: string) => string[],
): string[] {
  const out: string[] = [];
  for (const file of files) {
    const mine = ours.get(file) ?? [];
    const expected = theirs(file);
    if (JSON.stringify(mine) !== JSON.stringify(expected))
      out.push(`${file}: ours [${mine.join(', ')}], oracle [${expected.join(', ')}]`);
  }
  return out;
}

/** How many of each change kind: a run that saw none of a kind proves nothing about it. */
export function kinds(all: ReadonlyMap<string, string[]>): Record<string, number> {
  const counts: Record<string, number> = { added: 0, modified: 0, removed: 0 };
  for (const list of all.values()) for (const entry of list) counts[entry.split(' ')[0]!]! += 1;
  return counts;
}
