// The shape every verify rule reports in, and how a set of findings becomes a verdict.

export type Severity = 'error' | 'warning';

export interface Finding {
  /** A stable rule id, e.g. `skill/name`; the config file switches rules off or changes their severity by it. */
  rule: string;
  severity: Severity;
  /** Repository-relative, `/`-separated. */
  file: string;
  /** 1-based. */
  line?: number;
  message: string;
  fix?: string;
}

export interface VerifyReport {
  passed: boolean;
  totals: { errors: number; warnings: number; files_checked: number };
  findings: Finding[];
}

/** Collects findings for one file; rules call `error`/`warning` and never build objects by hand. */
export class FindingSink {
  readonly findings: Finding[] = [];

  error(rule: string, file: string, message: string, extra: { line?: number; fix?: string } = {}): void {
    this.add({ rule, severity: 'error', file, message, ...extra });
  }

  warning(rule: string, file: string, message: string, extra: { line?: number; fix?: string } = {}): void {
    this.add({ rule, severity: 'warning', file, message, ...extra });
  }

  private add(finding: Finding): void {
    if (finding.line === undefined) delete finding.line;
    if (finding.fix === undefined) delete finding.fix;
    this.findings.push(finding);
  }
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1))
    line++;
  return line;
}
