// The verify report as SARIF 2.1.0, through mcp-common's one SARIF writer: every catalog rule, every finding
// with its fix.
import { type SarifRule, toSarifLog } from '@groundwork/mcp-common/sarif';
import type { VerifyReport } from '../core/verify/finding.js';
import { RULES } from '../core/verify/ruleCatalog.js';

const CATALOG: readonly SarifRule[] = Object.entries(RULES).map(([id, rule]) => ({
  id,
  severity: rule.severity,
  rationale: rule.rationale,
  docs: rule.docs,
}));

export function toSarif(report: VerifyReport, version: string): object {
  return toSarifLog(
    {
      name: 'groundwork-adopt',
      version,
      informationUri: 'https://www.npmjs.com/package/@groundwork/adopt',
      tags: ['agent-conventions'],
    },
    CATALOG,
    report.findings.map((finding) => ({
      rule: finding.rule,
      severity: finding.severity,
      file: finding.file,
      line: finding.line,
      message: finding.message,
      ...(finding.fix === undefined ? {} : { fix: finding.fix }),
    })),
  );
}
