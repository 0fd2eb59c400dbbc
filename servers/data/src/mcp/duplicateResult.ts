// The wire shape of duplicate groups, shared by uniqueness_check and find_duplicates, and what their bounds cut.
import { type AnswerBudget, fitList } from '@groundwork/mcp-common';
import { z } from 'zod';
import type { DuplicateAnalysis } from '../core/duplicateAnalysis.js';
import type { DuplicateGroup } from '../core/duplicatePasses.js';
import type { FileCollisions } from '../core/fileCollisions.js';
import { boundedValue, isCut, MAX_VALUE_CHARACTERS } from '../core/resultBounds.js';
import type { TabularSource } from '../core/sources/tabularSource.js';

/** Where listed rows lie in a source of many files (a folder or glob): each row's file and its row there. */
export const rowPlacesSchema = {
  files: z
    .array(z.string())
    .optional()
    .describe(
      'For a folder or glob: the file each listed row is in (rows count across all files, in order).',
    ),
  file_rows: z
    .array(z.number().int())
    .optional()
    .describe('For a folder or glob: each listed row within its file.'),
};

/** The `files` and `file_rows` of `rows` when `source` is many files; nothing otherwise. */
export function rowPlaces(
  source: Pick<TabularSource, 'locate'>,
  rows: readonly number[],
): { files?: string[]; file_rows?: number[] } {
  if (source.locate === undefined) return {};
  const places = rows.map((row) => source.locate?.(row));
  if (places.some((place) => place === undefined)) return {};
  return {
    files: places.map((place) => boundedValue(place!.file)),
    file_rows: places.map((place) => place!.row),
  };
}

export const fileCollisionsSchema = z
  .object({
    files: z.number().int().describe('Files read as the source.'),
    unique_within_each_file: z
      .boolean()
      .describe('No file holds a key value twice: every duplicate comes from two or more files.'),
    values_within_one_file: z.number().int().describe('Duplicated values whose rows all lie in one file.'),
    values_across_files: z.number().int().describe('Duplicated values found in two or more files.'),
    colliding_pairs: z.number().int().describe('Pairs of files that share at least one key value.'),
    pairs: z
      .array(
        z.object({
          files: z.array(z.string()),
          shared_values: z.number().int(),
          example: z.array(z.string().nullable()).describe('One key value both files hold.'),
        }),
      )
      .describe('The pairs of files sharing the most key values, most first (at most 10).'),
    pairs_exact: z
      .boolean()
      .describe('False when a value lay in more than 64 files, so not every pair of its files was counted.'),
  })
  .optional()
  .describe(
    'For a folder or glob of files: whether the duplicates lie within files or across them, and which files collide.',
  );

/** The answer's `file_collisions`, for a source of many files. */
export function fileCollisionsOut(
  source: Pick<TabularSource, 'files'>,
  collisions: FileCollisions | undefined,
): { file_collisions?: z.infer<typeof fileCollisionsSchema> } {
  if (collisions === undefined || source.files === undefined) return {};
  return {
    file_collisions: {
      files: source.files.length,
      unique_within_each_file: collisions.uniqueWithinEachFile,
      values_within_one_file: collisions.valuesWithinOneFile,
      values_across_files: collisions.valuesAcrossFiles,
      colliding_pairs: collisions.pairCount,
      pairs: collisions.pairs.map((pair) => ({
        files: pair.files.map((file) => boundedValue(file)),
        shared_values: pair.sharedValues,
        example: pair.example.map((value) => boundedValue(value)),
      })),
      pairs_exact: collisions.pairsExact,
    },
  };
}

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
      'Where the delimited-text or JSON Lines source has lines: the physical line each listed row starts on (in its file).',
    ),
  ...rowPlacesSchema,
});

export const truncatedPartsSchema = z
  .array(z.string())
  .optional()
  .describe(
    'When truncated: what was cut — groups beyond the limit, rows beyond the per-group limit, long values, or groups dropped to keep the answer under its size bound.',
  );

type GroupOut = z.infer<typeof duplicateGroupSchema>;

function groupOut(group: DuplicateGroup, source: Pick<TabularSource, 'locate'>): GroupOut {
  const out: GroupOut = {
    values: group.values.map((value) => boundedValue(value)),
    count: group.count,
    rows: group.rows,
  };
  if (group.lines.length > 0) out.lines = group.lines;
  return { ...out, ...rowPlaces(source, group.rows) };
}

/**
 * The answer `answerOf(groups)` with as many groups as fit the call's answer budget, and the list of what
 * was cut: groups beyond `limit`, rows beyond `rowsPerGroup`, long values, groups dropped for size.
 */
export async function boundedGroups<T extends object>(
  source: Pick<TabularSource, 'locate'>,
  analysis: DuplicateAnalysis,
  rowsPerGroup: number,
  budget: AnswerBudget,
  answerOf: (groups: GroupOut[]) => T,
): Promise<T & { truncated: boolean; truncated_parts?: string[] }> {
  const groups = analysis.groups.map((group) => groupOut(group, source));
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
