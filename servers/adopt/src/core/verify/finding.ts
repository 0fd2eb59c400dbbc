// The shape every verify rule reports in, and how a set of findings becomes a verdict.
import { type RuleId, ruleInfo, type Severity } from './ruleCatalog.js';

export type { Severity } from './ruleCatalog.js';

export interface Finding {
  /** A stable rule id, e.g. `skill/name`; the config file switches rules off or changes their severity by it. */
  rule: string;
  severity: Severity;
  /** Repository-relative, `/`-separated. */
  file: string;
  /** 1-based; 1 when the problem is the whole file. */
  line: number;
  message: string;
  fix?: string;
  /** The documentation the rule enforces. */
  docs?: string;
}

export interface VerifyReport {
  passed: boolean;
  totals: { errors: number; warnings: number; notes: number; files_checked: number };
  findings: Finding[];
}

/** The verdict and counts of a report over `findings`: it passes when none is an error. */
export function reportOf(findings: Finding[], filesChecked: number): VerifyReport {
  const count = (severity: Finding['severity']) =>
    findings.filter((finding) => finding.severity === severity).length;
  return {
    passed: count('error') === 0,
    totals: {
      errors: count('error'),
      warnings: count('warning'),
      notes: count('note'),
      files_checked: filesChecked,
    },
    findings,
  };
}

/** Longer messages are cut (a message may quote what the file says, and a file may say a megabyte). */
const MAX_MESSAGE_CHARS = 1_000;

/** Collects findings; rules name their id and the catalog supplies the severity and documentation link. */
export class FindingSink {
  readonly findings: Finding[] = [];

  report(rule: RuleId, file: string, message: string, extra: { line?: number; fix?: string } = {}): void {
    const info = ruleInfo(rule);
    const finding: Finding = {
      rule,
      severity: info?.severity ?? 'error',
      file,
      line: extra.line ?? 1,
      message: message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message,
    };
    if (extra.fix !== undefined) finding.fix = extra.fix;
    if (info !== undefined) finding.docs = info.docs;
    this.findings.push(finding);
  }
}

/** Finds 1-based lines of many offsets in one text: the line starts are indexed once, then searched. */
export function lineLocator(text: string): (offset: number) => number {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1))
    starts.push(index + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

/** Text without a leading UTF-8 byte order mark (editors on Windows add one; Claude Code ignores it). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The closest candidate within a small edit distance, for "did you mean" suggestions. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  // One edit for short words, one more per four characters: typos, not different words.
  let bestDistance = Math.max(1, Math.floor(word.length / 4)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  let beforePrevious = previous;
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      // Two swapped letters are one typo (optimal string alignment distance).
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, (beforePrevious[j - 2] ?? 0) + 1);
      current.push(distance);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** " (did you mean 'x'?)" or "". */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const suggestion = closest(word, candidates);
  return suggestion === undefined || suggestion === word ? '' : ` (did you mean '${suggestion}'?)`;
}

/** At most 200 characters of something from the repository, for a message. */
export function shown(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
