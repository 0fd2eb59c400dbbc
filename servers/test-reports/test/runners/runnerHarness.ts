// The differential suite's common ground: a scratch directory per runner, the real runner run in it (twice:
// before and after a change), and the built server over stdio reading what the runner wrote. The oracle is
// always what the runner itself printed; `structuredContent` is what the server answered.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AllowedPaths } from '@groundwork/mcp-common';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';
import { expect } from 'vitest';
import { readJUnitWith } from '../../src/core/formats/junit/junitParser.js';
import { discoverReports } from '../../src/core/reportDiscovery.js';
import type { TestCaseResult } from '../../src/core/testResult.js';

const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
/** The server package's own bin folder: jest, vitest and mocha are its devDependencies. */
export const nodeBin = fileURLToPath(new URL('../../node_modules/.bin/', import.meta.url));

export interface Counts {
  total: number;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
}

export interface Ran {
  code: number | null;
  /** stdout and stderr together, ANSI colour removed: what the runner printed. */
  printed: string;
}

/**
 * Whether `command` can run here. Under CI (`CI` set) a missing runner is a failure, not a skip: CI
 * installs every runner (scripts/ci/apt/test-reports.txt, the package's devDependencies).
 */
export function available(command: string, args: readonly string[] = ['--version']): boolean {
  const probe = spawnSync(command, args, { stdio: 'ignore' });
  const found = probe.error === undefined && probe.status === 0;
  if (!found && process.env.CI)
    throw new Error(`CI must provide ${command} (see scripts/ci/apt/test-reports.txt)`);
  return found;
}

/** The runner under test must not think it runs inside this Vitest (workers, pools, reporters). */
function runnerEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_OPTIONS'),
  );
  return { ...inherited, NO_COLOR: '1', FORCE_COLOR: '0', COLUMNS: '400', ...env };
}

function printedText(stdout: string, stderr: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the runners' colour codes are removed
  return `${stdout}\n${stderr}`.replace(/\x1B\[[0-9;]*m/g, '');
}

export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Ran {
  const result = spawnSync(command, args, {
    cwd,
    env: runnerEnv(env),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error !== undefined) throw result.error;
  return { code: result.status, printed: printedText(result.stdout, result.stderr) };
}

/** `run` without blocking, so two independent runs (before and after a change) overlap. */
export function runInBackground(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: runnerEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, printed: printedText(stdout, stderr) }));
  });
}

/** A scratch directory that the server is allowed to read. */
export async function scratch(name: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `runner-${name}-`));
}

export async function writeProject(root: string, files: Record<string, string>): Promise<void> {
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

export async function removeFiles(root: string, relatives: readonly string[]): Promise<void> {
  for (const relative of relatives) await rm(path.join(root, relative), { force: true });
}

export interface Server {
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startServer(allowedDir: string): Promise<Server> {
  const session: StdioSession = await connectOverStdio({
    bin,
    clientName: 'test-reports-differential',
    args: ['--allowed-dir', allowedDir],
  });
  return {
    async call(name, args) {
      const outcome = await session.call(name, args, { timeoutMs: 120_000 });
      if (outcome.isError) throw new Error(`${name} failed: ${outcome.text}`);
      return outcome.structuredContent ?? {};
    },
    close: () => session.close(),
  };
}

export interface Failure {
  id: string;
  name: string;
  classname: string;
  status: string;
  message?: string;
  file?: string;
  line?: number;
  stack?: string;
}

/** Every failure of a run (list_failures, all pages). */
export async function failuresOf(server: Server, reports: string): Promise<Failure[]> {
  const all: Failure[] = [];
  for (let cursor: string | undefined; ; ) {
    const page = await server.call('list_failures', {
      path: reports,
      limit: 200,
      ...(cursor === undefined ? {} : { cursor }),
    });
    all.push(...(page.failures as Failure[]));
    if (page.next_cursor === undefined) return all;
    cursor = page.next_cursor as string;
  }
}

/** test_summary's counts equal the runner's printed counts, and a run the runner failed is never green. */
export async function expectSummary(
  server: Server,
  reports: string,
  printed: Counts,
): Promise<Record<string, unknown>> {
  const summary = await server.call('test_summary', { path: reports });
  expect({
    total: summary.total,
    passed: summary.passed,
    failed: summary.failed,
    errored: summary.errored,
    skipped: summary.skipped,
  }).toEqual(printed);
  if (printed.failed + printed.errored > 0) expect(summary.verdict).toBe('failing');
  return summary;
}

export function failureNamed(failures: readonly Failure[], name: string): Failure {
  const found = failures.find((failure) => failure.name === name);
  if (found === undefined)
    throw new Error(`no failure named ${name} among ${failures.map((f) => f.name).join(', ')}`);
  return found;
}

/** Reads a number the runner printed, e.g. `(\d+) passed` in pytest's summary; 0 when it printed none. */
export function printedNumber(printed: string, pattern: RegExp): number {
  const match = pattern.exec(printed);
  return match === null ? 0 : Number(match[1]);
}

/** A path relative to the allowed directory, as the tools take it. */
export function under(root: string, ...parts: string[]): string {
  return path.relative(root, path.join(root, ...parts)) || '.';
}

/**
 * Every JUnit report the runner wrote under `root` is read by the fast markup scanner without falling back
 * to saxes, and read exactly as saxes reads it (with and without details). Returns how many were checked.
 */
export async function expectJUnitReadAlike(root: string): Promise<number> {
  const found = await discoverReports(await AllowedPaths.under(root), root);
  let checked = 0;
  try {
    for (const report of found.reports) {
      if (report.format !== 'junit') continue;
      for (const details of [false, true]) {
        const read = async (reader: 'fast' | 'saxes') => {
          const cases: TestCaseResult[] = [];
          const file = await report.open();
          try {
            await readJUnitWith(reader, file, (testCase) => cases.push(testCase), { details });
          } finally {
            await file.close();
          }
          return cases;
        };
        expect(await read('fast'), report.name).toEqual(await read('saxes'));
      }
      checked += 1;
    }
  } finally {
    await found.close();
  }
  return checked;
}
