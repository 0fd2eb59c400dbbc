// @groundwork/mcp-common/sarif — findings as SARIF 2.1.0, the format code-scanning services (GitHub code
// scanning among them) annotate pull requests from. Pure: a server's CLI hands its rule catalog and findings
// in, and gets the log to print. Every rule carries its rationale and documentation; every result a region, a
// percent-encoded relative URI and a fingerprint that survives lines moving.
import { createHash } from 'node:crypto';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifRule {
  id: string;
  severity: SarifLevel;
  /** One line on why the rule exists; its first sentence is the short description. */
  rationale: string;
  docs: string;
}

export interface SarifFinding {
  rule: string;
  severity: SarifLevel;
  /** Relative to the scanned root, `/`-separated. */
  file: string;
  /** 1-based. */
  line: number;
  message: string;
  /** How to fix it: shown after the message, left out of the fingerprint so rewording a fix keeps the alert. */
  fix?: string;
}

export interface SarifTool {
  name: string;
  version: string;
  informationUri: string;
  /** Tags every rule carries besides its family (the part of its id before `/`). */
  tags?: readonly string[];
}

export function toSarifLog(
  tool: SarifTool,
  rules: readonly SarifRule[],
  findings: readonly SarifFinding[],
): object {
  const ids = [
    ...new Set([...rules.map((rule) => rule.id), ...findings.map((finding) => finding.rule)]),
  ].sort();
  const byId = new Map(rules.map((rule) => [rule.id, rule]));
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            semanticVersion: tool.version,
            informationUri: tool.informationUri,
            rules: ids.map((id) => {
              const rule = byId.get(id);
              const rationale = rule?.rationale ?? id;
              return {
                id,
                name: pascalCase(id),
                shortDescription: { text: firstSentence(rationale) },
                fullDescription: { text: rationale },
                ...(rule === undefined
                  ? {}
                  : {
                      helpUri: rule.docs,
                      help: {
                        text: `${rationale} See ${rule.docs}`,
                        markdown: `${rationale}\n\n[Documentation](${rule.docs})`,
                      },
                      defaultConfiguration: { level: rule.severity },
                    }),
                properties: { tags: [...(tool.tags ?? []), id.split('/')[0] ?? id] },
              };
            }),
          },
        },
        results: findings.map((finding) => ({
          ruleId: finding.rule,
          ruleIndex: ids.indexOf(finding.rule),
          level: finding.severity,
          message: {
            text: finding.fix === undefined ? finding.message : `${finding.message} Fix: ${finding.fix}`,
          },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: relativeUri(finding.file), uriBaseId: '%SRCROOT%' },
                region: { startLine: Math.max(1, finding.line) },
              },
            },
          ],
          partialFingerprints: { 'groundworkFinding/v1': fingerprint(finding) },
        })),
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
}

/** A relative URI: each path segment percent-encoded (`my dir/build.gradle` → `my%20dir/build.gradle`). */
export function relativeUri(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

/** Rule, file and message, never the line, so a finding keeps its identity when lines above it change. */
function fingerprint(finding: SarifFinding): string {
  return createHash('sha256')
    .update(`${finding.rule}\u0000${finding.file}\u0000${finding.message}`)
    .digest('hex')
    .slice(0, 32);
}

function pascalCase(id: string): string {
  return id
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

function firstSentence(text: string): string {
  const end = text.search(/[.:;](\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}
