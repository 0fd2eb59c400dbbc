// The verify report as SARIF 2.1.0, the format code-scanning services annotate pull requests from.
import type { VerifyReport } from '../core/verify/finding.js';

export function toSarif(report: VerifyReport, version: string): object {
  const ruleIds = [...new Set(report.findings.map((finding) => finding.rule))].sort();
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'groundwork-adopt',
            version,
            informationUri: 'https://www.npmjs.com/package/@groundwork/adopt',
            rules: ruleIds.map((id) => ({ id, shortDescription: { text: id } })),
          },
        },
        results: report.findings.map((finding) => ({
          ruleId: finding.rule,
          ruleIndex: ruleIds.indexOf(finding.rule),
          level: finding.severity,
          message: {
            text: finding.fix === undefined ? finding.message : `${finding.message} ${finding.fix}`,
          },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: finding.file, uriBaseId: '%SRCROOT%' },
                ...(finding.line === undefined ? {} : { region: { startLine: finding.line } }),
              },
            },
          ],
        })),
      },
    ],
  };
}
