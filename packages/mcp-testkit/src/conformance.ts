// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against a built server bin
// over streamable HTTP, on the Node 22 runtime that @groundwork/conformance-runtime locates.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { conformanceCommand } from '@groundwork/conformance-runtime';
import { startHttpServer } from './serverProcess.js';

/** The scenarios every groundwork server must pass. */
export const REQUIRED_CONFORMANCE_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'logging-set-level',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
] as const;

export interface ConformanceCheck {
  id: string;
  status: string;
  description: string;
  errorMessage?: string;
}

export interface ConformanceResult {
  scenario: string;
  /** True when the run finished and no check reported FAILURE. */
  passed: boolean;
  checks: ConformanceCheck[];
  /** The runner's own output, for diagnosing a failure. */
  output: string;
}

const run = promisify(execFile);

/**
 * Starts `bin` over streamable HTTP on a free port, runs each scenario against it, and stops it.
 *
 * @example const results = await runConformance(bin, ['server-initialize', 'ping']);
 */
export async function runConformance(
  bin: string,
  scenarios: readonly string[] = REQUIRED_CONFORMANCE_SCENARIOS,
  options: { args?: readonly string[]; env?: Record<string, string> } = {},
): Promise<ConformanceResult[]> {
  const server = await startHttpServer(
    bin,
    'streamable-http',
    options.args,
    options.env === undefined ? {} : { env: options.env },
  );
  const outputDir = await mkdtemp(path.join(tmpdir(), 'groundwork-conformance-'));
  try {
    const results: ConformanceResult[] = [];
    // One at a time: scenarios such as server-sse-multiple-streams measure concurrency themselves.
    for (const scenario of scenarios) results.push(await runScenario(server.url, scenario, outputDir));
    return results;
  } finally {
    await server.stop();
    await rm(outputDir, { recursive: true, force: true });
  }
}

async function runScenario(url: string, scenario: string, outputDir: string): Promise<ConformanceResult> {
  const { node, cli } = conformanceCommand();
  const scenarioDir = path.join(outputDir, scenario);
  let output: string;
  try {
    const done = await run(node, [cli, 'server', '--url', url, '--scenario', scenario, '-o', scenarioDir], {
      timeout: 60_000,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    output = done.stdout + done.stderr;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    output = `${failed.stdout ?? ''}${failed.stderr ?? ''}` || failed.message;
  }
  const checks = await readChecks(scenarioDir);
  const passed = checks.length > 0 && checks.every((check) => check.status !== 'FAILURE');
  return { scenario, passed, checks, output };
}

async function readChecks(scenarioDir: string): Promise<ConformanceCheck[]> {
  const runs = await readdir(scenarioDir).catch(() => [] as string[]);
  const checks: ConformanceCheck[] = [];
  for (const runDir of runs) {
    const text = await readFile(path.join(scenarioDir, runDir, 'checks.json'), 'utf8').catch(() => '[]');
    for (const check of JSON.parse(text) as ConformanceCheck[]) {
      checks.push({
        id: check.id,
        status: check.status,
        description: check.description,
        ...(check.errorMessage === undefined ? {} : { errorMessage: check.errorMessage }),
      });
    }
  }
  return checks;
}

/** One line per check that did not pass, for an assertion message. */
export function describeFailures(result: ConformanceResult): string {
  const failures = result.checks.filter((check) => check.status === 'FAILURE');
  if (failures.length === 0 && result.checks.length > 0) return '';
  if (result.checks.length === 0) return `${result.scenario}: no checks were recorded\n${result.output}`;
  return failures
    .map((check) => `${result.scenario}/${check.id}: ${check.errorMessage ?? check.description}`)
    .join('\n');
}
