// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against a built server bin
// over streamable HTTP, on the Node 22 runtime that @groundwork/conformance-runtime locates: one run per
// requirement set (`--requirements <revision>`: exactly the scenarios that revision requires, at its wire).
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { conformanceCommand } from '@groundwork/conformance-runtime';
import { startHttpServer } from './serverProcess.js';

export const REQUIREMENT_SETS = ['2025-11-25', '2026-07-28'] as const;
type RequirementSet = (typeof REQUIREMENT_SETS)[number];

/**
 * The scenarios every groundwork server must pass, per requirement set: all those the set requires except
 * those that cannot apply to a domain server (docs/conformance.md says which and why).
 */
export const REQUIRED_CONFORMANCE_SCENARIOS: Record<RequirementSet, readonly string[]> = {
  '2025-11-25': [
    'server-initialize',
    'logging-set-level',
    'ping',
    'tools-list',
    'server-sse-multiple-streams',
    'resources-list',
    'prompts-list',
    'dns-rebinding-protection',
    // Run with the set though added after its release (not scored by the suite); passed all the same.
    'server-session-lifecycle',
  ],
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'server-sse-multiple-streams',
    'resources-list',
    'sep-2164-resource-not-found',
    'prompts-list',
    'dns-rebinding-protection',
    'caching',
    'input-required-result-missing-input-response',
    'input-required-result-unsupported-methods',
    'input-required-result-ignore-extra-params',
    'input-required-result-validate-input',
    // Pending in the suite (not scored yet); passed all the same.
    'http-header-validation',
    // The tasks extension (not scored by the suite): run and required wherever no fixture tool is needed.
    'tasks-capability-negotiation',
    'tasks-dispatch-and-envelope',
    'tasks-request-headers',
  ],
};

/**
 * Extension scenarios (not on the spec's timeline, so no requirement set runs them): run one by one at each
 * requirement set's wire and required the same way. Where a server does not declare the extension their
 * checks are skipped, which passes.
 */
export const EXTENSION_SCENARIOS: readonly string[] = [
  // io.modelcontextprotocol/skills (SEP-2640): skills/list, skills/get, skill:// resources, SKILL.md.
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
  // resources/directory/read is optional and not offered: its checks skip (passed: 1/1, the flag undeclared).
  'sep-2640-skills-directory',
];

const FIXTURE_TOOLS = "call the suite's own fixture tools (`test_*`), which a domain server does not have";
const INPUT_TOOLS =
  'call fixture tools that ask for input; no groundwork tool needs more input than its arguments';
const FIXTURE_PROMPTS =
  "get the suite's fixture prompts (`test_*`); the contract renders every prompt of each server instead";
const FIXTURE_RESOURCES = "read the suite's fixture resources (`test://…`)";
const TASK_FIXTURES =
  "create every task on the suite's fixture tools; the contract's own task checks run the same steps on each server's tools";

/**
 * Every other scenario the suite runs at some requirement set, with why it cannot apply to a domain server
 * (docs/conformance.md). A scenario the suite runs that is neither required nor here fails the contract, so a
 * new release of the suite is classified before it is trusted.
 */
export const NOT_APPLICABLE_SCENARIOS: Record<string, string> = {
  ...Object.fromEntries(
    [
      'tools-call-simple-text',
      'tools-call-image',
      'tools-call-audio',
      'tools-call-embedded-resource',
      'tools-call-mixed-content',
      'tools-call-with-logging',
      'tools-call-error',
      'tools-call-with-progress',
      'tools-call-sampling',
      'tools-call-elicitation',
      'elicitation-sep1034-defaults',
      'elicitation-sep1330-enums',
    ].map((scenario) => [scenario, FIXTURE_TOOLS]),
  ),
  ...Object.fromEntries(
    [
      'input-required-result-basic-elicitation',
      'input-required-result-basic-sampling',
      'input-required-result-basic-list-roots',
      'input-required-result-request-state',
      'input-required-result-multiple-input-requests',
      'input-required-result-multi-round',
      'input-required-result-result-type',
      'input-required-result-tampered-state',
      'input-required-result-capability-check',
      'tasks-mrtr-input',
      'tasks-mrtr-composition',
    ].map((scenario) => [scenario, INPUT_TOOLS]),
  ),
  'input-required-result-non-tool-request': 'gets the fixture prompt test_prompt_input_required',
  ...Object.fromEntries(
    [
      'prompts-get-simple',
      'prompts-get-with-args',
      'prompts-get-embedded-resource',
      'prompts-get-with-image',
    ].map((scenario) => [scenario, FIXTURE_PROMPTS]),
  ),
  ...Object.fromEntries(
    ['resources-read-text', 'resources-read-binary', 'resources-templates-read'].map((scenario) => [
      scenario,
      FIXTURE_RESOURCES,
    ]),
  ),
  'resources-subscribe': 'no server has resources that change, so none offers subscriptions',
  'resources-unsubscribe': 'no server has resources that change, so none offers subscriptions',
  'completion-complete':
    "completes the fixture prompt test_prompt_with_arguments (answered -32602); the contract completes each server's own prompt arguments",
  ...Object.fromEntries(
    ['tasks-lifecycle', 'tasks-wire-fields', 'tasks-request-state-removal'].map((scenario) => [
      scenario,
      TASK_FIXTURES,
    ]),
  ),
  'tasks-required-task-error':
    'the fixture tool failing_job requires a task; no groundwork tool requires one',
  'tasks-status-notifications': 'skipped by the suite itself (its harness is not written yet)',
  'server-sse-polling':
    'calls the fixture tool test_reconnection, which closes its stream mid-call; the unknown tool is answered as JSON, so the suite records only INFO (pending in the suite: its own fixture cannot pass it)',
  'json-schema-2020-12':
    'lists the fixture tool json_schema_2020_12_tool and checks its schema keywords (pending in the suite)',
  'http-custom-header-server-validation':
    'needs a tool whose arguments are mirrored into headers (x-mcp-header); no groundwork tool declares one (pending in the suite)',
};

/** Checks inside applicable scenarios that probe the suite's fixture tools; reported, never counted. */
const NOT_APPLICABLE_CHECKS: Record<string, string> = {
  'sep-2575-server-rejects-undeclared-capability': 'needs the fixture tool test_missing_capability',
  'sep-2575-missing-capability-http-400': 'needs the fixture tool test_missing_capability',
  'sep-2575-http-server-no-independent-requests-on-stream':
    'needs the fixture tool test_streaming_elicitation',
  'sep-2575-server-no-log-without-loglevel': 'needs the fixture tool test_logging_tool',
  // Inside the tasks scenarios required above: the steps that create a task on a fixture tool.
  'sep-2663-server-rejects-undeclared-client': 'needs the fixture tool slow_compute',
  'tasks-per-request-meta-opt-in': 'needs the fixture tool slow_compute',
  'tasks-server-directed-creation-no-hint': 'needs the fixture tools slow_compute and failing_job',
  'sep-2663-legacy-task-param-ignored': 'needs the fixture tool greet',
  'tasks-immediate-result-shortcut': 'needs the fixture tool slow_compute',
  'tasks-result-type-complete-on-non-task-responses':
    'needs the fixture tools greet, slow_compute and confirm_delete',
  'sep-2663-durable-create-strong-consistency': 'needs the fixture tool slow_compute',
  'tasks-headers-tolerate-mcp-method-on-tools-call': 'needs the fixture tool greet',
  'sep-2663-routing-headers-accepted-on-tasks-get': 'needs a task of the fixture tool slow_compute',
  'sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get': 'needs a task of the fixture tool slow_compute',
};

export interface ConformanceCheck {
  id: string;
  status: string;
  description: string;
  errorMessage?: string;
}

export interface ConformanceResult {
  scenario: string;
  /** True when the run finished and no applicable check reported FAILURE. */
  passed: boolean;
  checks: ConformanceCheck[];
  /** The runner's own output, for diagnosing a failure. */
  output: string;
}

const run = promisify(execFile);

/**
 * Starts `bin` over streamable HTTP on a free port, runs the suite's requirement set against it, and
 * stops it. Returns one result per scenario the suite ran (scored or not).
 *
 * @example const results = await runConformance(bin, '2026-07-28');
 */
export async function runConformance(
  bin: string,
  requirements: RequirementSet,
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
    const { node, cli } = conformanceCommand();
    const runner = async (args: readonly string[]): Promise<string> => {
      try {
        const done = await run(node, [cli, 'server', '--url', server.url, ...args, '-o', outputDir], {
          timeout: 240_000,
          env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
        });
        return done.stdout + done.stderr;
      } catch (error) {
        // The runner exits non-zero when any scenario fails, including the ones that do not apply.
        const failed = error as { stdout?: string; stderr?: string; message: string };
        return `${failed.stdout ?? ''}${failed.stderr ?? ''}` || failed.message;
      }
    };
    const output = await runner(['--requirements', requirements]);
    // --force: an extension scenario is "not applicable" to any spec version until forced. They run side by
    // side (each run mostly waits for the runner to start).
    const extensions = await Promise.all(
      EXTENSION_SCENARIOS.map((scenario) =>
        runner(['--scenario', scenario, '--spec-version', requirements, '--force']),
      ),
    );
    return await readResults(outputDir, [output, ...extensions].join(''));
  } finally {
    await server.stop();
    await rm(outputDir, { recursive: true, force: true });
  }
}

// The runner saves each scenario's checks in `server-<scenario>-<ISO timestamp>/checks.json`.
const RUN_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

async function readResults(outputDir: string, output: string): Promise<ConformanceResult[]> {
  const results: ConformanceResult[] = [];
  for (const runDir of (await readdir(outputDir)).sort()) {
    const scenario = RUN_DIR.exec(runDir)?.[1];
    if (scenario === undefined) continue;
    const text = await readFile(path.join(outputDir, runDir, 'checks.json'), 'utf8').catch(() => '[]');
    const checks = (JSON.parse(text) as ConformanceCheck[]).map((check) => ({
      id: check.id,
      status: check.status,
      description: check.description,
      ...(check.errorMessage === undefined ? {} : { errorMessage: check.errorMessage }),
    }));
    const counted = checks.filter((check) => NOT_APPLICABLE_CHECKS[check.id] === undefined);
    const passed = checks.length > 0 && counted.every((check) => check.status !== 'FAILURE');
    results.push({ scenario, passed, checks, output });
  }
  return results;
}

/** `passed/total` over the counted checks (SUCCESS vs FAILURE), as the suite prints them. */
export function tally(result: ConformanceResult): { passed: number; failed: number } {
  const counted = result.checks.filter((check) => NOT_APPLICABLE_CHECKS[check.id] === undefined);
  return {
    passed: counted.filter((check) => check.status === 'SUCCESS').length,
    failed: counted.filter((check) => check.status === 'FAILURE').length,
  };
}

/** One line per check that did not pass, for an assertion message. */
export function describeFailures(result: ConformanceResult): string {
  if (result.checks.length === 0) return `${result.scenario}: no checks were recorded\n${result.output}`;
  return result.checks
    .filter((check) => check.status === 'FAILURE' && NOT_APPLICABLE_CHECKS[check.id] === undefined)
    .map((check) => `${result.scenario}/${check.id}: ${check.errorMessage ?? check.description}`)
    .join('\n');
}
