// The wire shape of duplicate groups, shared by uniqueness_check and find_duplicates.
import { z } from 'zod';
import type { DuplicateGroup } from '../core/duplicateAnalysis.js';

export const duplicateGroupSchema = z.object({
  values: z
    .array(z.string().nullable())
    .describe('The key values as compared (after trim / case folding); null for a null.'),
  count: z.number().int(),
  rows: z.array(z.number().int()).describe('The first rows of the group: 1-based data-record numbers.'),
  lines: z
    .array(z.number().int())
    .optional()
    .describe(
      'Where the delimited-text or JSON Lines source has lines: the physical line each listed row starts on.',
    ),
});

export function groupOut(group: DuplicateGroup): z.infer<typeof duplicateGroupSchema> {
  const out: z.infer<typeof duplicateGroupSchema> = {
    values: group.values,
    count: group.count,
    rows: group.rows,
  };
  if (group.lines.length > 0) out.lines = group.lines;
  return out;
}
