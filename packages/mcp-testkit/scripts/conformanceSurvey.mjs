// Every scenario the official conformance suite runs against each server, per requirement set, and how it
// is classified: the figures of docs/conformance.md. Run after building the servers and the testkit:
//   node packages/mcp-testkit/scripts/conformanceSurvey.mjs [data,context,test-reports,adopt,build]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  EXTENSION_SCENARIOS,
  NOT_APPLICABLE_SCENARIOS,
  REQUIRED_CONFORMANCE_SCENARIOS,
  REQUIREMENT_SETS,
  runConformance,
  tally,
} from '../dist/conformance.js';

const servers = fileURLToPath(new URL('../../../servers/', import.meta.url));
const names = (process.argv[2] ?? 'data,context,test-reports,adopt,build').split(',');
for (const name of names) {
  const bin = path.join(servers, name, 'dist', 'bin.js');
  for (const set of REQUIREMENT_SETS) {
    const results = await runConformance(bin, set, {
      args: ['--allowed-dir', path.join(servers, name, 'test', 'fixtures')],
    });
    const required = new Set([...REQUIRED_CONFORMANCE_SCENARIOS[set], ...EXTENSION_SCENARIOS]);
    const rows = results.map((result) => {
      const { passed, failed } = tally(result);
      const kind = required.has(result.scenario)
        ? 'required'
        : NOT_APPLICABLE_SCENARIOS[result.scenario] === undefined
          ? 'UNCLASSIFIED'
          : 'not applicable';
      return {
        scenario: result.scenario,
        kind,
        passed: result.passed,
        checks: `${passed}/${passed + failed}`,
      };
    });
    const requiredRows = rows.filter((row) => row.kind === 'required');
    process.stdout.write(
      `${name} ${set}: ${rows.length} scenarios run; required ${requiredRows.filter((row) => row.passed).length}/${requiredRows.length} passed; ${rows.filter((row) => row.kind === 'not applicable').length} not applicable; ${rows.filter((row) => row.kind === 'UNCLASSIFIED').length} unclassified\n`,
    );
    for (const row of rows)
      process.stdout.write(
        `  ${row.kind.padEnd(15)} ${row.passed ? 'pass' : 'FAIL'} ${row.checks.padStart(6)} ${row.scenario}\n`,
      );
  }
}
