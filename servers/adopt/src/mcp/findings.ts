// The findings verify_repo and doctor answer with: one wire shape, errors first, and counts per rule that stay
// whole whatever page the answer is.
import { z } from 'zod';
import type { Finding } from '../core/verify/finding.js';

const SEVERITY_ORDER = { error: 0, warning: 1, note: 2 } as const;
const severity = z.enum(['error', 'warning', 'note']);

export const findingSchema = z.object({
  rule: z.string(),
  severity,
  file: z.string(),
  line: z.number().int(),
  message: z.string(),
  fix: z.string().optional(),
  docs: z.string().optional(),
});

export const byRuleSchema = z
  .array(z.object({ rule: z.string(), severity, count: z.number().int() }))
  .describe('How many findings each rule reported (all of them, whatever page this is), most first.');

/** Errors, then warnings, then notes (the order within each kept). */
export function bySeverity(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}

export function countByRule(findings: readonly Finding[]): z.infer<typeof byRuleSchema> {
  const counts = new Map<string, { rule: string; severity: Finding['severity']; count: number }>();
  for (const { rule, severity: level } of findings) {
    const key = `${level} ${rule}`;
    const entry = counts.get(key) ?? { rule, severity: level, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || (a.rule < b.rule ? -1 : 1));
}
