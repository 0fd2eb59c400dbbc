import { defineTool, optionalBoundedInt, optionalInt, stringList, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { findKeys } from '../core/keyDiscovery.js';
import {
  comparisonArguments,
  comparisonOf,
  scanControlOf,
  sourceArguments,
  withSource,
} from './dataSource.js';

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
      max_violating_rows: optionalInt(
        'A non-key is reported as a near-key when at most this many rows violate it (default: 0.1% of the rows, at least 1).',
      ),
      ...comparisonArguments,
      limit: optionalBoundedInt(1, 1000, 50, 'Keys and near-keys to return at most (each).'),
    }),
    output: z.object({
      format: z.string(),
      keys: z.array(z.array(z.string())).describe('Minimal unique column combinations, smallest first.'),
      near_keys: z
        .array(z.object({ columns: z.array(z.string()), violating_rows: z.number().int() }))
        .describe(
          'Non-unique combinations, fewest violating rows first; violating_rows = rows to drop to make it unique.',
        ),
      rows: z.number().int(),
      columns: z.array(z.string()).describe('The columns examined.'),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
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
      return ToolResult.success({
        format: source.format,
        keys: found.keys,
        near_keys: found.nearKeys.map((near) => ({
          columns: near.columns,
          violating_rows: near.violatingRows,
        })),
        rows: found.rows,
        columns: found.columns,
        truncated: found.truncated,
      });
    });
  },
});
