// Suspect commits on a git history built here with planted bugs, read from a real runner's reports (Jest's
// JSON): the commit that introduced each bug ranks first for its cluster, however many commits touched the
// same files before and after it (one moves the buggy line down). The oracle is the plant: which commit wrote
// which bug.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeBin, run, scratch, writeProject } from './runnerHarness.js';

const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

const PRICE_GOOD = `function priceOf(item) {
  return (item.price ? item.price.amount : 0) * 100;
}

module.exports = { priceOf };
`;
const TAX_GOOD = `function taxOf(order, rate) {
  return order.total * rate;
}

module.exports = { taxOf };
`;
const TESTS: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'suspects-demo', private: true }),
  '.gitignore': 'reports/\n',
  'cart.test.js': `const { priceOf } = require('./price');
test('prices a book', () => { expect(priceOf({ name: 'book' })).toBe(0); });
test('prices a pen', () => { expect(priceOf({ name: 'pen' })).toBe(0); });
test('prices a priced item', () => { expect(priceOf({ price: { amount: 2 } })).toBe(200); });
`,
  'checkout.test.js': `const { priceOf } = require('./price');
const { taxOf } = require('./tax');
test('checks out a mug', () => { expect(priceOf({ sku: 'mug-1' })).toBe(0); });
test('taxes order 1001', () => { expect(taxOf({ id: 1001, total: 10 }, 0.25)).toBe(2.5); });
test('taxes order 1002', () => { expect(taxOf({ id: 1002, total: 10 }, 0.5)).toBe(5); });
test('taxes within range', () => { expect(taxOf({ id: 1003, total: 10 }, 0.1)).toBe(1); });
`,
};

let root: string;
let repo: string;
let session: StdioSession;
const planted: Record<string, string> = {};
let goodCommit: string;
let clock = 1_700_000_000;

function git(args: string[]): string {
  clock += 60;
  const date = `${clock} +0000`;
  const result = spawnSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Planter',
      GIT_AUTHOR_EMAIL: 'planter@example.com',
      GIT_COMMITTER_NAME: 'Planter',
      GIT_COMMITTER_EMAIL: 'planter@example.com',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

async function commit(files: Record<string, string>, message: string): Promise<string> {
  await writeProject(repo, files);
  git(['add', '-A']);
  git(['commit', '-q', '-m', message]);
  return git(['rev-parse', 'HEAD']);
}

async function jest(reports: string): Promise<void> {
  await mkdir(path.join(repo, reports), { recursive: true });
  run(path.join(nodeBin, 'jest'), ['--ci', '--json', `--outputFile=${reports}/results.json`], repo);
}

async function call(name: string, args: Record<string, unknown>) {
  return session.call(name, args, { timeoutMs: 120_000 });
}

async function suspects(args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const outcome = await call('suspect_commits', args);
  if (outcome.isError) throw new Error(outcome.text);
  return outcome.structuredContent as Record<string, unknown>;
}

beforeAll(async () => {
  root = await scratch('suspects');
  repo = path.join(root, 'repo');
  await mkdir(repo);
  git(['init', '-q', '-b', 'main']);
  await commit({ ...TESTS, 'price.js': PRICE_GOOD, 'tax.js': TAX_GOOD, 'README.md': '# shop\n' }, 'initial');
  git(['checkout', '-q', '-b', 'feature']);
  let price = PRICE_GOOD;
  let tax = TAX_GOOD;
  for (let n = 1; n <= 6; n += 1) {
    price = `${price}// note ${n}\n`;
    await commit({ 'price.js': price, 'README.md': `# shop\n\nstep ${n}\n` }, `touch price.js ${n}`);
  }
  goodCommit = git(['rev-parse', 'HEAD']);
  await jest('reports/good');
  await cp(path.join(repo, 'reports/good'), path.join(root, 'good'), { recursive: true });
  // Bug 1: items without a price throw a TypeError on the line this commit writes.
  price = price.replace(
    'return (item.price ? item.price.amount : 0) * 100;',
    'return item.price.amount * 100;',
  );
  planted.price = await commit({ 'price.js': price }, 'price: read the amount directly');
  for (let n = 1; n <= 4; n += 1) {
    tax = `${tax}// tax note ${n}\n`;
    await commit({ 'tax.js': tax }, `touch tax.js ${n}`);
  }
  // Bug 2: rates above 0.2 are refused.
  tax = tax.replace(
    '  return order.total * rate;',
    `  if (rate > 0.2) throw new RangeError(\`rate \${rate} out of range for order \${order.id}\`);\n  return order.total * rate;`,
  );
  planted.tax = await commit({ 'tax.js': tax }, 'tax: refuse rates above 0.2');
  // After the bugs: the buggy line moves down, and both files change again elsewhere.
  price = `// Prices, in cents.\n${price}// later\n`;
  await commit({ 'price.js': price }, 'price: a header comment');
  tax = `${tax}// later\n`;
  await commit({ 'tax.js': tax, 'README.md': '# shop\n\nlater\n' }, 'tax: a trailing comment');
  await jest('reports/bad');
  // The same reports outside any repository.
  await cp(path.join(repo, 'reports/bad'), path.join(root, 'loose'), { recursive: true });
  session = await connectOverStdio({ bin, clientName: 'suspects-test', args: ['--allowed-dir', root] });
}, 180_000);

afterAll(async () => {
  await session?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

interface Cluster {
  id: string;
  signature: { type: string; frame: string };
  member_ids: string[];
}

async function clusters(): Promise<Cluster[]> {
  const outcome = await call('failure_clusters', { path: 'repo/reports/bad' });
  return (outcome.structuredContent as { clusters: Cluster[] }).clusters;
}

describe('suspect_commits on a planted history', () => {
  it('ranks the commit that introduced each bug first for its cluster (base: the merge-base with main)', async () => {
    const found = await clusters();
    const priceCluster = found.find((cluster) => cluster.signature.type === 'TypeError') as Cluster;
    const taxCluster = found.find((cluster) => cluster.signature.type === 'RangeError') as Cluster;
    expect(priceCluster.member_ids).toHaveLength(3);
    expect(taxCluster.member_ids).toHaveLength(2);
    for (const [cluster, culprit, file] of [
      [priceCluster, planted.price, 'price.js'],
      [taxCluster, planted.tax, 'tax.js'],
    ] as const) {
      const answer = await suspects({ path: 'repo/reports/bad', cluster: cluster.id });
      expect(answer.range).toMatchObject({ how: 'merge_base', commits: 14 });
      const list = answer.suspects as {
        commit: string;
        wrote: { file: string; line: number }[];
        changes: { file: string; added: string[] }[];
      }[];
      expect(list[0]?.commit).toBe(culprit);
      expect(list[0]?.wrote.map((line) => line.file)).toContain(file);
      expect(list[0]?.changes.some((hunk) => hunk.file === file && hunk.added.length > 0)).toBe(true);
      // The other commits that touched the file are listed too, below it.
      expect(list.length).toBeGreaterThan(2);
    }
  });

  it('takes the newest run in which the tests passed as the good state, or the base given', async () => {
    const [first] = await clusters();
    const fromHistory = await suspects({
      path: 'repo/reports/bad',
      cluster: first?.id,
      history: [
        { path: 'good', commit: goodCommit },
        // A run in which the tests failed is no good state.
        { path: 'loose', commit: 'HEAD' },
      ],
    });
    expect(fromHistory.range).toMatchObject({ how: 'last_passing_run', base: goodCommit, commits: 8 });
    const given = await suspects({ path: 'repo/reports/bad', cluster: first?.id, base: goodCommit });
    expect(given.range).toMatchObject({ how: 'given', base: goodCommit });
    expect((given.suspects as { commit: string }[])[0]?.commit).toBe(
      (fromHistory.suspects as { commit: string }[])[0]?.commit,
    );
  });

  it('takes one failure by id', async () => {
    const list = await call('list_failures', { path: 'repo/reports/bad' });
    const failures = (list.structuredContent as { failures: { id: string; name: string }[] }).failures;
    const taxed = failures.find((failure) => failure.name === 'taxes order 1001') as { id: string };
    const answer = await suspects({ path: 'repo/reports/bad', id: taxed.id });
    expect((answer.suspects as { commit: string }[])[0]?.commit).toBe(planted.tax);
    expect(answer.target).toMatchObject({ id: taxed.id, failures: 1 });
  });

  it('says which argument is wrong: reports outside a repository, a bad base, an unknown cluster', async () => {
    const [first] = await clusters();
    const loose = await call('suspect_commits', { path: 'loose', cluster: first?.id });
    expect(loose.isError).toBe(true);
    expect(loose.text).toMatch(/Invalid argument 'path'.*not in a git repository/);
    expect(loose.text).not.toContain(root);
    const base = await call('suspect_commits', {
      path: 'repo/reports/bad',
      cluster: first?.id,
      base: '--all',
    });
    expect(base.isError).toBe(true);
    expect(base.text).toMatch(/Invalid argument 'base'/);
    const unknown = await call('suspect_commits', { path: 'repo/reports/bad', cluster: 'c0000' });
    expect(unknown.text).toMatch(/No cluster with id 'c0000'/);
    const neither = await call('suspect_commits', { path: 'repo/reports/bad' });
    expect(neither.text).toMatch(/Invalid argument 'cluster'/);
  });
});
