// The verify report for a terminal or a CI log: one block per finding (where, what, the fix, why and the
// documentation it follows), then the verdict.
import type { VerifyReport } from '../core/verify/finding.js';
import { ruleInfo } from '../core/verify/ruleCatalog.js';

export function toText(report: VerifyReport): string {
  const lines = report.findings.map((finding) => {
    const info = ruleInfo(finding.rule);
    const fix = finding.fix === undefined ? '' : `\n    fix: ${finding.fix}`;
    const why = info === undefined ? '' : `\n    why: ${info.rationale} (${info.docs})`;
    return `${finding.file}:${finding.line}: ${finding.severity} [${finding.rule}] ${finding.message}${fix}${why}`;
  });
  const { errors, warnings, notes, files_checked } = report.totals;
  lines.push(
    `${report.passed ? 'passed' : 'failed'}: ${errors} error(s), ${warnings} warning(s), ${notes} note(s) in ${files_checked} file(s) checked`,
  );
  return `${lines.join('\n')}\n`;
}
