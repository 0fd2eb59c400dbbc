// The transport contract: one call registers the same suite over stdio, streamable HTTP and stateless
// HTTP against a server's built bin, plus its command line and the official conformance scenarios.
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuiltFresh } from './builtFresh.js';
import {
  type ConformanceResult,
  describeFailures,
  EXTENSION_SCENARIOS,
  NOT_APPLICABLE_SCENARIOS,
  REQUIRED_CONFORMANCE_SCENARIOS,
  REQUIREMENT_SETS,
  runConformance,
} from './conformance.js';
import { baseArgs, type TransportContractSpec } from './contractSpec.js';
import { describeExtTasks, describeModernExtTasks } from './extTasksChecks.js';
import { describeHttpTransport } from './httpChecks.js';
import { describeModernRevision } from './modernChecks.js';
import { describeModernTasks } from './modernTaskChecks.js';
import { describeSdkClients } from './sdkClients.js';
import { runBin, TEST_HANG_GUARD_MS } from './serverProcess.js';
import { describeSharedSuite } from './sharedSuite.js';
import { describeStdioWire, stdioHarness } from './stdioChecks.js';

/**
 * Registers vitest suites proving `spec.bin` keeps every wire-level promise of mcp-common.
 *
 * @example
 * describeTransportContract({
 *   serverName: 'groundwork-data',
 *   bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
 *   clientName: 'data-contract-test',
 *   allowedDir: fileURLToPath(new URL('./fixtures', import.meta.url)),
 *   sampleCall: { name: 'uniqueness_check', arguments: { file: 'people.csv', columns: ['id'] } },
 * });
 */
export function describeTransportContract(spec: TransportContractSpec): void {
  assertBuiltFresh(spec.bin);
  describe(`${spec.serverName} transport contract`, { timeout: TEST_HANG_GUARD_MS }, () => {
    describe('over stdio', () => {
      describe('through the SDK client', () => describeSharedSuite(spec, stdioHarness(spec)));
      describe('on the wire', () => describeStdioWire(spec));
    });
    describe('over streamable HTTP', () => describeHttpTransport(spec, 'streamable-http'));
    describe('over stateless HTTP', () => describeHttpTransport(spec, 'stateless-http'));
    describe('official SDK clients, v1 and v2', () => describeSdkClients(spec));
    describe('MCP 2026-07-28 on the raw wire', () => describeModernRevision(spec));
    describe('the 2026-07-28 tasks extension on the raw wire', () => describeModernTasks(spec));
    describe('tasks through the official ext-tasks client (v2 SDK, 2025-11-25)', () =>
      describeExtTasks(spec));
    describe('tasks through the official ext-tasks client (v2 SDK, 2026-07-28)', () =>
      describeModernExtTasks(spec));
    describe('command line', () => describeCommandLine(spec));
    describe('official conformance suite over streamable HTTP', () => describeConformance(spec));
  });
}

function describeCommandLine(spec: TransportContractSpec): void {
  const env = spec.env ?? {};
  it('exits 2 on an unknown transport, naming the three modes', async () => {
    const spellings = [
      { args: ['--transport', 'bogus'], env },
      { args: ['--transport.mode=bogus'], env },
      { args: [], env: { ...env, GROUNDWORK_TRANSPORT: 'bogus' } },
    ];
    for (const { args, env: environment } of spellings) {
      const run = await runBin(spec.bin, [...baseArgs(spec), ...args], { env: environment });
      expect(run.code, args.join(' ') || 'GROUNDWORK_TRANSPORT=bogus').toBe(2);
      for (const mode of ['stdio', 'streamable-http', 'stateless-http']) expect(run.stderr).toContain(mode);
      expect(run.stdout).toBe('');
    }
  });

  it('refuses to serve HTTP on a non-loopback --host without GROUNDWORK_AUTH_TOKEN', async () => {
    const run = await runBin(
      spec.bin,
      [...baseArgs(spec), '--transport', 'streamable-http', '--host', '0.0.0.0', '--port', '0'],
      {
        env: { ...env, GROUNDWORK_AUTH_TOKEN: '' },
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('GROUNDWORK_AUTH_TOKEN');
    expect(run.stderr).toContain('--allow-unauthenticated');
  });

  it('prints usage on --help and exits 0', async () => {
    const run = await runBin(spec.bin, ['--help'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--transport');
    expect(run.stdout).toContain('--allowed-dir');
  });

  it('prints its version on --version and exits 0', async () => {
    const run = await runBin(spec.bin, ['--version'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
}

function describeConformance(spec: TransportContractSpec): void {
  for (const requirements of REQUIREMENT_SETS) {
    describe(`requirement set ${requirements}`, () => {
      let results: ConformanceResult[] = [];
      beforeAll(async () => {
        results = await runConformance(spec.bin, requirements, {
          args: baseArgs(spec),
          ...(spec.env === undefined ? {} : { env: spec.env }),
        });
      }, 300_000);

      const required = [...REQUIRED_CONFORMANCE_SCENARIOS[requirements], ...EXTENSION_SCENARIOS];
      it.each(required)('passes %s', (scenario) => {
        const result = results.find((candidate) => candidate.scenario === scenario);
        expect(result, `${scenario} did not run`).toBeDefined();
        if (result === undefined) return;
        expect(result.passed, describeFailures(result)).toBe(true);
      });

      it('ran no scenario that is neither required nor known not to apply', () => {
        expect(results.length).toBeGreaterThan(required.length);
        const unclassified = results
          .map((result) => result.scenario)
          .filter(
            (scenario) => !required.includes(scenario) && NOT_APPLICABLE_SCENARIOS[scenario] === undefined,
          );
        expect(unclassified).toEqual([]);
      });
    });
  }
}
