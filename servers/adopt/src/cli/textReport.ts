// The verify report for a terminal or a CI log: one line per finding, then the verdict.
import type { VerifyReport } from '../core/verify/finding.js';

export function toText(report: VerifyReport): string {
  const lines = report.findings.map((finding) => {
    const where = finding.line === undefined ? finding.file : `${finding.file}:${finding.line}`;
    const fix = finding.fix === undefined ? '' : `\n    fix: ${finding.fix}`;
    return `${where}: ${finding.severity} [${finding.rule}] ${finding.message}${fix}`;
  });
  const { errors, warnings, files_checked } = report.totals;
  lines.push(
    `${report.passed ? 'passed' : 'failed'}: ${errors} error(s), ${warnings} warning(s) in ${files_checked} file(s) checked`,
  );
  return `${lines.join('\n')}\n`;
}
