// The verify report as SARIF 2.1.0, the format code-scanning services (GitHub code scanning among them)
// annotate pull requests from: every rule with its rationale and documentation, every result with a region,
// a percent-encoded relative URI and a fingerprint that survives lines moving.
import { createHash } from 'node:crypto';
import type { VerifyReport } from '../core/verify/finding.js';
import { RULES } from '../core/verify/ruleCatalog.js';

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export function toSarif(report: VerifyReport, version: string): object {
  const ruleIds = [
    ...new Set([...Object.keys(RULES), ...report.findings.map((finding) => finding.rule)]),
  ].sort();
  const rules = ruleIds.map((id) => {
    const info = (RULES as Record<string, (typeof RULES)[keyof typeof RULES]>)[id];
    const rationale = info?.rationale ?? id;
    return {
      id,
      name: ruleName(id),
      shortDescription: { text: firstSentence(rationale) },
      fullDescription: { text: rationale },
      ...(info === undefined
        ? {}
        : {
            helpUri: info.docs,
            help: {
              text: `${rationale} See ${info.docs}`,
              markdown: `${rationale}\n\n[Documentation](${info.docs})`,
            },
            defaultConfiguration: { level: info.severity },
          }),
      properties: { tags: ['agent-conventions', id.split('/')[0] ?? id] },
    };
  });
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'groundwork-adopt',
            version,
            semanticVersion: version,
            informationUri: 'https://www.npmjs.com/package/@groundwork/adopt',
            rules,
          },
        },
        results: report.findings.map((finding) => ({
          ruleId: finding.rule,
          ruleIndex: ruleIds.indexOf(finding.rule),
          level: finding.severity,
          message: {
            text: finding.fix === undefined ? finding.message : `${finding.message} Fix: ${finding.fix}`,
          },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: toUri(finding.file), uriBaseId: '%SRCROOT%' },
                region: { startLine: Math.max(1, finding.line) },
              },
            },
          ],
          partialFingerprints: {
            'groundworkFinding/v1': fingerprint(finding.rule, finding.file, finding.message),
          },
        })),
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
}

/** A relative URI: each path segment percent-encoded (`my skill/SKILL.md` → `my%20skill/SKILL.md`). */
export function toUri(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

/** Rule, file and message (never the line), so a finding keeps its identity when lines above it change. */
function fingerprint(rule: string, file: string, message: string): string {
  return createHash('sha256').update(`${rule}\u0000${file}\u0000${message}`).digest('hex').slice(0, 32);
}

function ruleName(id: string): string {
  return id
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

function firstSentence(text: string): string {
  const end = text.search(/[.:;](\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}
