// `groundwork-build health` as CI runs it: the built bin on the checked-in Gradle fixture, its exit codes and
// its three formats, each carrying the findings build_health answers (tools.test.ts) for the same build.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sarifSchemaErrors } from '@groundwork/mcp-testkit';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

function health(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, 'health', ...args], { cwd: fixtures, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const FINDINGS = [
  'dependency/dynamic-version app/build.gradle.kts:8 error',
  'dependency/version-mismatch app/build.gradle.kts:7 warning',
  'gradle/build-cache-off gradle.properties:1 warning',
  'gradle/configuration-cache-off gradle.properties:1 note',
  'gradle/cross-project-configuration build.gradle.kts:5 note',
  'gradle/eager-task-api app/build.gradle.kts:12 warning',
  'repository/jcenter build.gradle.kts:8 error',
];

describe('groundwork-build health', () => {
  it('prints each finding at file:line and exits 1 when one is an error', () => {
    const { code, stdout } = health('gradle-kotlin');
    expect(code).toBe(1);
    const printed = [...stdout.matchAll(/^(\S+):(\d+): (error|warning|note) (\S+): /gm)].map(
      (m) => `${m[4]} ${m[1]}:${m[2]} ${m[3]}`,
    );
    expect(printed.sort()).toEqual(FINDINGS);
    expect(stdout).toMatch(/^2 errors, 3 warnings, 2 notes$/m);
  });

  it('prints the same findings as JSON and as SARIF 2.1.0', () => {
    const json = health('gradle-kotlin', '--format', 'json');
    expect(json.code).toBe(1);
    const { findings } = JSON.parse(json.stdout) as {
      findings: Array<{ rule: string; file: string; line: number; severity: string }>;
    };
    expect(findings.map((f) => `${f.rule} ${f.file}:${f.line} ${f.severity}`).sort()).toEqual(FINDINGS);

    const sarif = health('--format=sarif', 'gradle-kotlin');
    expect(sarif.code).toBe(1);
    // Valid against the published SARIF 2.1.0 schema (OASIS rtm.5, as Microsoft's SARIF SDK ships it).
    const log = JSON.parse(sarif.stdout);
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(sarifSchemaErrors({ ...log, version: '2.0.0' })).not.toEqual([]);
    const [run] = log.runs;
    expect(run.tool.driver.name).toBe('groundwork-build');
    const results = run.results.map(
      (result: {
        ruleId: string;
        ruleIndex: number;
        level: string;
        locations: Array<{
          physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
        }>;
      }) => {
        expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
        const { artifactLocation, region } = result.locations[0]!.physicalLocation;
        return `${result.ruleId} ${artifactLocation.uri}:${region.startLine} ${result.level}`;
      },
    );
    expect(results.sort()).toEqual(FINDINGS);
  });

  it('exits 2 naming the path as given for a missing folder, and for a bad format', () => {
    const missing = health('no-such-build');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("'no-such-build' is not a directory");
    expect(missing.stdout).toBe('');
    expect(health('gradle-kotlin', '--format', 'xml').code).toBe(2);
  });
});
