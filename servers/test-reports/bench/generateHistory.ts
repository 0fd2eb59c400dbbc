// A git history of any length with one planted bug, written in one `git fast-import` (10,000 commits in about a
// second), and the JUnit report of the run that fails on it: the suspect_commits benchmark and the contract's
// sample. Most commits change other files; every fifth changes src/price.js away from the failing line (so
// blame has thousands of commits to walk); the planted commit, at 70 % of the history, writes the failing line.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface GeneratedHistory {
  /** The repository's work tree. */
  repo: string;
  /** The failing run's report directory, inside the work tree (ignored by git). */
  reports: string;
  /** The commit that wrote the bug. */
  culprit: string;
  /** The first commit (tag `v0`): the good state. */
  base: string;
  commits: number;
  failures: number;
}

const PRICE_LINE = 3;

function priceFile(counter: number, buggy: boolean): string {
  return [
    '// Prices, in cents.',
    'function priceOf(item) {',
    buggy ? '  return item.price.amount * 100;' : '  return (item.price ? item.price.amount : 0) * 100;',
    '}',
    '',
    `const REVISION = ${counter};`,
    '',
    'module.exports = { priceOf, REVISION };',
    '',
  ].join('\n');
}

function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

/** Writes the repository and report unless they exist for these parameters. */
export async function generateHistory(options: {
  directory: string;
  commits: number;
  failures?: number;
}): Promise<GeneratedHistory> {
  const failures = options.failures ?? 50;
  const repo = path.join(options.directory, `history-${options.commits}-${failures}`);
  const done = path.join(repo, '.git', 'generated.json');
  if (existsSync(done)) return JSON.parse(await readFile(done, 'utf8')) as GeneratedHistory;
  await rm(repo, { recursive: true, force: true });
  await mkdir(repo, { recursive: true });
  const git = (args: string[], input?: string) => {
    const result = spawnSync('git', args, { cwd: repo, input, encoding: 'utf8', maxBuffer: 1 << 30 });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
    return result.stdout.trim();
  };
  git(['init', '-q', '-b', 'main']);
  const bugAt = Math.max(2, Math.floor(options.commits * 0.7));
  const chunks: string[] = [];
  let buggy = false;
  for (let n = 1; n <= options.commits; n += 1) {
    const time = 1_600_000_000 + n * 60;
    const files: [string, string][] = [];
    let message: string;
    if (n === 1) {
      files.push(['src/price.js', priceFile(0, false)]);
      files.push(['.gitignore', 'reports/\n']);
      files.push([
        'test/price.test.js',
        "const { priceOf } = require('../src/price');\n\ntest('prices', () => {\n  expect(priceOf({})).toBe(0);\n});\n",
      ]);
      message = 'initial';
    } else if (n === bugAt) {
      buggy = true;
      files.push(['src/price.js', priceFile(n, true)]);
      message = 'price: read the amount directly';
    } else if (n % 5 === 0) {
      files.push(['src/price.js', priceFile(n, buggy)]);
      message = `price: revision ${n}`;
    } else {
      files.push([`src/module${n % 97}.js`, `module.exports = ${n};\n`]);
      message = `module ${n % 97}: revision ${n}`;
    }
    chunks.push(
      `commit refs/heads/main\nmark :${n}\nauthor Dev <dev@example.com> ${time} +0000\ncommitter Dev <dev@example.com> ${time} +0000\n${data(message)}`,
    );
    for (const [file, text] of files) chunks.push(`M 100644 inline ${file}\n${data(text)}`);
  }
  git(['fast-import', '--quiet'], chunks.join(''));
  git(['tag', 'v0', git(['rev-list', '--max-parents=0', 'main'])]);
  git(['checkout', '-q', '-f', 'main']);
  const culprit = git(['rev-list', '--reverse', 'main']).split('\n')[bugAt - 1] as string;
  const base = git(['rev-parse', 'v0']);
  const reports = path.join(repo, 'reports');
  await mkdir(reports, { recursive: true });
  await writeFile(path.join(reports, 'TEST-price.xml'), junitReport(failures));
  const generated: GeneratedHistory = { repo, reports, culprit, base, commits: options.commits, failures };
  await writeFile(done, JSON.stringify(generated));
  return generated;
}

/** The run on the buggy code: every test reads the price of an item without one (a TypeError in price.js). */
function junitReport(failures: number): string {
  const cases: string[] = [];
  for (let n = 1; n <= failures; n += 1) {
    const message = "TypeError: Cannot read properties of undefined (reading 'amount')";
    const stack = [
      message,
      `    at priceOf (/home/runner/work/shop/shop/src/price.js:${PRICE_LINE}:21)`,
      `    at Object.&lt;anonymous&gt; (/home/runner/work/shop/shop/test/price.test.js:${3 + n}:10)`,
      '    at Promise.then.completed (/home/runner/work/shop/shop/node_modules/jest-circus/build/utils.js:298:28)',
    ].join('\n');
    cases.push(
      `  <testcase classname="price" name="prices item ${n}" time="0.001"><failure message="${message.replace(/'/g, '&apos;')}" type="TypeError">${stack}</failure></testcase>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="price.test.js" tests="${failures}" failures="${failures}">\n${cases.join('\n')}\n</testsuite></testsuites>\n`;
}
