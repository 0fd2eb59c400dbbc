import {
  defineTool,
  maxTokensArgument,
  optionalBoundedInt,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { analyzeDuplicates } from '../core/duplicateAnalysis.js';
import {
  comparisonArguments,
  comparisonOf,
  scanControlOf,
  sourceArguments,
  warningsOf,
  warningsSchema,
  withSource,
} from './dataSource.js';
import {
  boundedGroups,
  duplicateGroupSchema,
  fileCollisionsOut,
  fileCollisionsSchema,
  truncatedPartsSchema,
} from './duplicateResult.js';

export const findDuplicatesTool = defineTool({
  definition: {
    name: 'find_duplicates',
    title: 'Find duplicates',
    description:
      'Lists the groups of rows that share the same value of a column or column combination (e.g. "which rows share an email?"), largest group first, with row and line numbers, plus the total number of groups. A folder or glob of files is one source: rows name their file, and file_collisions says which files share values. Exact; bounded memory; SQL sources run it in the database. Use uniqueness_check for a yes/no with counts.',
    input: z.object({
      ...sourceArguments,
      columns: stringList('One column, or several for a compound key.'),
      ...comparisonArguments,
      limit: optionalBoundedInt(1, 1000, 20, 'Groups to return at most.'),
      rows_per_group: optionalBoundedInt(1, 1000, 20, 'Rows to list per group at most.'),
      max_tokens: maxTokensArgument,
    }),
    output: z.object({
      format: z.string(),
      groups: z.array(duplicateGroupSchema).describe('Largest first.'),
      total_groups: z.number().int().describe('All duplicate groups, listed or not.'),
      duplicate_rows: z.number().int().describe('Rows in all groups.'),
      rows: z.number().int(),
      nulls: z.number().int(),
      truncated: z.boolean().describe('Whether anything was cut; truncated_parts says what.'),
      truncated_parts: truncatedPartsSchema,
      file_collisions: fileCollisionsSchema,
      warnings: warningsSchema,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // May run long on a big input: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    return withSource(args, ctx, async (source) => {
      const analysis = await analyzeDuplicates(
        source,
        {
          columns: args.columns,
          comparison: comparisonOf(args),
          limit: args.limit,
          rowsPerGroup: args.rows_per_group,
        },
        scanControlOf(ctx),
      );
      return ToolResult.success(
        await boundedGroups(source, analysis, args.rows_per_group, ctx.answer, (groups) => ({
          format: source.format,
          groups,
          total_groups: analysis.duplicateValues,
          duplicate_rows: analysis.duplicateRows,
          rows: analysis.rows,
          nulls: analysis.nulls,
          ...fileCollisionsOut(source, analysis.fileCollisions),
          ...warningsOf(source),
        })),
      );
    });
  },
});
