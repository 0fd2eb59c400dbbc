// The wire shape of duplicate groups, shared by uniqueness_check and find_duplicates, and what their bounds cut.
import { z } from 'zod';
import type { DuplicateAnalysis } from '../core/duplicateAnalysis.js';
import type { DuplicateGroup } from '../core/duplicatePasses.js';
import {
  boundedValue,
  fitList,
  isCut,
  MAX_ANSWER_BYTES,
  MAX_VALUE_CHARACTERS,
} from '../core/resultBounds.js';

export const duplicateGroupSchema = z.object({
  values: z
    .array(z.string().nullable())
    .describe(
      `The key values as compared (after trim / case folding); null for a null. A value longer than ${MAX_VALUE_CHARACTERS} characters is cut and ends in '…[cut: N characters]'.`,
    ),
  count: z.number().int(),
  rows: z.array(z.number().int()).describe('The first rows of the group: 1-based data-record numbers.'),
  lines: z
    .array(z.number().int())
    .optional()
    .describe(
      'Where the delimited-text or JSON Lines source has lines: the physical line each listed row starts on.',
    ),
});

export const truncatedPartsSchema = z
  .array(z.string())
  .optional()
  .describe(
    'When truncated: what was cut — groups beyond the limit, rows beyond the per-group limit, long values, or groups dropped to keep the answer under its size bound.',
  );

type GroupOut = z.infer<typeof duplicateGroupSchema>;

function groupOut(group: DuplicateGroup): GroupOut {
  const out: GroupOut = {
    values: group.values.map((value) => boundedValue(value)),
    count: group.count,
    rows: group.rows,
  };
  if (group.lines.length > 0) out.lines = group.lines;
  return out;
}

/**
 * The groups as sent, fitted into the answer `shape(groups)` under MAX_ANSWER_BYTES, with the list of what
 * was cut: groups beyond `limit`, rows beyond `rowsPerGroup`, long values, groups dropped for size.
 */
export function boundedGroups<T extends { groups: GroupOut[] }>(
  analysis: DuplicateAnalysis,
  rowsPerGroup: number,
  answerOf: (groups: GroupOut[]) => T,
): T & { truncated: boolean; truncated_parts?: string[] } {
  const groups = analysis.groups.map(groupOut);
  const parts: string[] = [];
  if (analysis.duplicateValues > groups.length)
    parts.push(`groups: ${groups.length} of ${analysis.duplicateValues} listed (limit)`);
  const longGroups = analysis.groups.filter((group) => group.count > group.rows.length).length;
  if (longGroups > 0) parts.push(`rows: ${longGroups} group(s) list only their first ${rowsPerGroup} rows`);
  const cutValues = analysis.groups.reduce((n, group) => n + group.values.filter(isCut).length, 0);
  if (cutValues > 0) parts.push(`values: ${cutValues} value(s) cut to ${MAX_VALUE_CHARACTERS} characters`);
  const answer = answerOf(groups);
  const dropped = fitList(answer, answer.groups);
  if (dropped > 0)
    parts.push(
      `size: ${dropped} more group(s) dropped to keep the answer under ${MAX_ANSWER_BYTES / 1024} KB`,
    );
  return { ...answer, truncated: parts.length > 0, ...(parts.length > 0 ? { truncated_parts: parts } : {}) };
}
