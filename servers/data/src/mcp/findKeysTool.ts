import {
  defineTool,
  fitList,
  maxTokensArgument,
  optionalBoundedInt,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { findKeys } from '../core/keyDiscovery.js';
import { boundedValue, isCut, MAX_VALUE_CHARACTERS } from '../core/resultBounds.js';
import {
  comparisonArguments,
  comparisonOf,
  scanControlOf,
  sourceArguments,
  warningsOf,
  warningsSchema,
  withSource,
} from './dataSource.js';
import { truncatedPartsSchema } from './duplicateResult.js';

export const findKeysTool = defineTool({
  definition: {
    name: 'find_keys',
    title: 'Find candidate keys',
    description:
      'Finds every minimal unique column combination (candidate primary key) of up to max_columns columns — no superset of a key is listed — plus near-keys: combinations unique except for a few rows, with how many rows violate them. Exact (position list indexes with apriori pruning). Reads the whole table into memory as value ids (4 bytes per cell), so it suits tables up to tens of millions of cells.',
    input: z.object({
      ...sourceArguments,
      columns: stringList('Only consider these columns (default: all).').optional(),
      max_columns: optionalBoundedInt(1, 6, 3, 'Largest combination size to examine.'),
      max_violating_rows: z
        .number()
        .int()
        .min(0)
        .max(Number.MAX_SAFE_INTEGER)
        .optional()
        .describe(
          'A non-key is reported as a near-key when at most this many rows violate it (default: 0.1% of the rows, at least 1; 0 lists no near-keys).',
        ),
      ...comparisonArguments,
      limit: optionalBoundedInt(1, 1000, 50, 'Keys and near-keys to return at most (each).'),
      max_tokens: maxTokensArgument,
    }),
    output: z.object({
      format: z.string(),
      keys: z
        .array(
          z.object({
            columns: z.array(z.string()),
            has_nulls: z
              .boolean()
              .describe(
                'Some row has a null in these columns: unique as SQL UNIQUE (nulls never equal), but not a primary key.',
              ),
          }),
        )
        .describe('Minimal unique column combinations, smallest first.'),
      near_keys: z
        .array(z.object({ columns: z.array(z.string()), violating_rows: z.number().int() }))
        .describe(
          'Non-unique combinations, fewest violating rows first; violating_rows = rows to drop to make it unique. Minimal: a combination is not listed when a smaller one inside it has as few violating rows.',
        ),
      rows: z.number().int(),
      columns: z.array(z.string()).describe('The columns examined.'),
      truncated: z.boolean().describe('Whether anything was cut; truncated_parts says what.'),
      truncated_parts: truncatedPartsSchema,
      warnings: warningsSchema,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // May run long on a big input: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    return withSource(args, ctx, async (source) => {
      const found = await findKeys(
        source,
        {
          columns: args.columns,
          maxColumns: args.max_columns,
          comparison: comparisonOf(args),
          maxViolatingRows: args.max_violating_rows,
          limit: args.limit,
        },
        scanControlOf(ctx),
      );
      const names = (columns: string[]) => columns.map((name) => boundedValue(name));
      const answer = {
        format: source.format,
        keys: found.keys.map((key) => ({ columns: names(key.columns), has_nulls: key.hasNulls })),
        near_keys: found.nearKeys.map((near) => ({
          columns: names(near.columns),
          violating_rows: near.violatingRows,
        })),
        rows: found.rows,
        columns: names(found.columns),
        ...warningsOf(source),
      };
      const parts: string[] = [];
      if (found.truncated) parts.push(`keys: more than ${args.limit} keys or near-keys found (limit)`);
      const longNames = found.columns.filter(isCut).length;
      if (longNames > 0)
        parts.push(`values: ${longNames} column name(s) cut to ${MAX_VALUE_CHARACTERS} characters`);
      // Near-keys go first when the answer is too large, then keys, then the column names.
      const full = {
        near_keys: answer.near_keys.length,
        keys: answer.keys.length,
        columns: answer.columns.length,
      };
      const framed = (fitted: typeof answer) => {
        const dropped =
          full.near_keys -
          fitted.near_keys.length +
          full.keys -
          fitted.keys.length +
          full.columns -
          fitted.columns.length;
        const all =
          dropped > 0
            ? [
                ...parts,
                `size: ${dropped} entries dropped to keep the answer within ${ctx.answer.maxTokens} tokens; raise max_tokens or lower limit`,
              ]
            : parts;
        return { ...fitted, truncated: all.length > 0, ...(all.length > 0 ? { truncated_parts: all } : {}) };
      };
      const budget = ctx.answer;
      const nearKeys = await fitList(answer.near_keys, {
        budget,
        frame: (near_keys) => framed({ ...answer, near_keys }),
      });
      const keys = await fitList(answer.keys, {
        budget,
        frame: (fitted) => framed({ ...answer, near_keys: nearKeys.items, keys: fitted }),
      });
      const { answer: fitted } = await fitList(answer.columns, {
        budget,
        frame: (columns) => framed({ ...answer, near_keys: nearKeys.items, keys: keys.items, columns }),
      });
      return ToolResult.success(fitted);
    });
  },
});
