// The wire shape of duplicate groups, shared by uniqueness_check and find_duplicates, and what their bounds cut.
import { type AnswerBudget, fitList } from '@groundwork/mcp-common';
import { z } from 'zod';
import type { DuplicateAnalysis } from '../core/duplicateAnalysis.js';
import type { DuplicateGroup } from '../core/duplicatePasses.js';
import { boundedValue, isCut, MAX_VALUE_CHARACTERS } from '../core/resultBounds.js';

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
 * The answer `answerOf(groups)` with as many groups as fit the call's answer budget, and the list of what
 * was cut: groups beyond `limit`, rows beyond `rowsPerGroup`, long values, groups dropped for size.
 */
export async function boundedGroups<T extends object>(
  analysis: DuplicateAnalysis,
  rowsPerGroup: number,
  budget: AnswerBudget,
  answerOf: (groups: GroupOut[]) => T,
): Promise<T & { truncated: boolean; truncated_parts?: string[] }> {
  const groups = analysis.groups.map(groupOut);
  const parts: string[] = [];
  if (analysis.duplicateValues > groups.length)
    parts.push(`groups: ${groups.length} of ${analysis.duplicateValues} listed (limit)`);
  const longGroups = analysis.groups.filter((group) => group.count > group.rows.length).length;
  if (longGroups > 0) parts.push(`rows: ${longGroups} group(s) list only their first ${rowsPerGroup} rows`);
  const cutValues = analysis.groups.reduce((n, group) => n + group.values.filter(isCut).length, 0);
  if (cutValues > 0) parts.push(`values: ${cutValues} value(s) cut to ${MAX_VALUE_CHARACTERS} characters`);
  const { answer } = await fitList(groups, {
    budget,
    frame: (fitted) => {
      const all = [...parts];
      const dropped = groups.length - fitted.length;
      if (dropped > 0) {
        all.push(
          `size: ${dropped} more group(s) dropped to keep the answer within ${budget.maxTokens} tokens; raise max_tokens or lower limit`,
        );
      }
      return {
        ...answerOf(fitted),
        truncated: all.length > 0,
        ...(all.length > 0 ? { truncated_parts: all } : {}),
      };
    },
  });
  return answer;
}
