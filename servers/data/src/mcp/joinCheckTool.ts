import {
  defineTool,
  fitList,
  maxTokensArgument,
  optionalBoundedInt,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { joinAdvice } from '../core/joinAdvice.js';
import { checkJoin, type JoinSide, type KeySample } from '../core/joinCheck.js';
import { boundedValue } from '../core/resultBounds.js';
import type { TabularSource } from '../core/sources/tabularSource.js';
import {
  comparisonArguments,
  comparisonOf,
  scanControlOf,
  sourceArguments,
  underArgument,
  warningsSchema,
  withSource,
} from './dataSource.js';
import { duplicateGroupSchema, rowPlaces, truncatedPartsSchema } from './duplicateResult.js';

const sideInput = (which: string) =>
  z
    .object(sourceArguments)
    .describe(
      `The ${which} side: the same source arguments as every data tool ('file' — a data file or 'sqlite:<path>' — or 'connection_env', with 'table' for SQL; 'format', 'delimiter', … for files).`,
    );

const sideOutput = z.object({
  format: z.string(),
  rows: z.number().int(),
  null_keys: z.number().int().describe('Rows whose key has a null; with nulls "distinct" they join nothing.'),
  distinct_keys: z.number().int(),
  duplicate_keys: z.number().int().describe('Keys held by more than one row of this side.'),
  unique: z.boolean().describe('Whether the key is unique on this side.'),
  matched_rows: z.number().int().describe('Rows whose key the other side has.'),
  orphan_rows: z.number().int().describe('Rows whose key the other side does not have.'),
  orphan_keys: z.number().int(),
  max_matches: z.number().int().describe('The most rows of the other side one row of this side joins.'),
  matches_per_row: z
    .array(z.object({ matches: z.string(), rows: z.number().int() }))
    .describe('Rows of this side by how many rows of the other side each joins: 0, 1, 2, 3-10, 11-100, …'),
  orphans: z.array(duplicateGroupSchema).describe('The first orphan keys, in row order, with their rows.'),
  duplicates: z
    .array(duplicateGroupSchema)
    .describe(
      "This side's duplicated keys that the other side has (each multiplies its partners), most rows first.",
    ),
});

/** `id` (the same name on both sides) or `customer_id=id` (left = right). */
function pairsOf(on: readonly string[], left: TabularSource, right: TabularSource) {
  return on.map((item) => {
    if (left.columns.includes(item) && right.columns.includes(item)) return { left: item, right: item };
    const at = item.indexOf('=');
    if (at < 0) return { left: item, right: item };
    return { left: item.slice(0, at).trim(), right: item.slice(at + 1).trim() };
  });
}

function sampleOut(sample: KeySample, source: TabularSource) {
  return {
    values: sample.values.map((value) => boundedValue(value)),
    count: sample.count,
    rows: sample.rows,
    ...(sample.lines.length > 0 ? { lines: sample.lines } : {}),
    ...rowPlaces(source, sample.rows),
  };
}

function sideOut(side: JoinSide, source: TabularSource) {
  return {
    format: source.format,
    rows: side.rows,
    null_keys: side.nullKeys,
    distinct_keys: side.distinctKeys,
    duplicate_keys: side.duplicateKeys,
    unique: side.duplicateKeys === 0,
    matched_rows: side.matchedRows,
    orphan_rows: side.orphanRows,
    orphan_keys: side.orphanKeys,
    max_matches: side.maxMatches,
    matches_per_row: side.matchesPerRow,
    orphans: side.orphans.map((sample) => sampleOut(sample, source)),
    duplicates: side.duplicates.map((sample) => sampleOut(sample, source)),
  };
}

/** A source's name in the answer's sentence: its table, else its file. */
function nameOf(args: { file?: string | undefined; table?: string | undefined }, fallback: string): string {
  return args.table ?? args.file?.replace(/^sqlite:/, '') ?? fallback;
}

export const joinCheckTool = defineTool({
  definition: {
    name: 'join_check',
    title: 'Join check',
    description:
      "Tells exactly what joining two sources on some columns does, before you write the join: the rows an inner join gives, the cardinality (1:1, 1:n, n:1, n:m), which side's duplicated keys multiply the other's rows (with their values and rows), orphan keys on each side that an inner join drops (with rows and line numbers), null keys, and a sentence saying what to do. Each side is any source the other tools read (CSV/TSV, gzip, JSON Lines, Parquet, a SQLite or PostgreSQL table); two tables of one database are checked inside it. Bounded memory (spills to disk). Cost: one pass over each side, a second only to list samples.",
    input: z.object({
      left: sideInput('left'),
      right: sideInput('right'),
      on: stringList(
        "The key: one column name per pair, 'name' when both sides call it so, else 'left_column=right_column' (e.g. ['customer_id=id'] or 'order_id,line').",
      ),
      ...comparisonArguments,
      limit: optionalBoundedInt(1, 1000, 10, 'Orphan keys and duplicated keys listed per side at most.'),
      rows_per_sample: optionalBoundedInt(1, 1000, 5, 'Rows listed per key at most.'),
      max_tokens: maxTokensArgument,
    }),
    output: z.object({
      answer: z.string().describe('What the join does and what to do about it, in a few sentences.'),
      cardinality: z
        .enum(['1:1', '1:n', 'n:1', 'n:m'])
        .describe('Over the keys both sides have: n on a side when some such key has several rows there.'),
      inner_join_rows: z.number().int().describe('Rows an inner join on the key gives.'),
      matched_keys: z.number().int().describe('Distinct keys both sides have.'),
      left: sideOutput,
      right: sideOutput,
      truncated: z.boolean(),
      truncated_parts: truncatedPartsSchema,
      spilled: z.boolean().describe('Whether the key counts used temporary files.'),
      warnings: warningsSchema,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    return underArgument('left', () =>
      withSource(args.left, ctx, (left) =>
        underArgument('right', () =>
          withSource(args.right, ctx, async (right) => {
            const on = pairsOf(args.on, left, right);
            const check = await checkJoin(
              left,
              right,
              {
                on,
                comparison: comparisonOf(args),
                samples: args.limit,
                rowsPerSample: args.rows_per_sample,
              },
              scanControlOf(ctx),
            );
            const answer = joinAdvice(check, {
              left: nameOf(args.left, 'left'),
              right: nameOf(args.right, 'right'),
              on: on
                .map((pair) => (pair.left === pair.right ? pair.left : `${pair.left} = ${pair.right}`))
                .join(', '),
              leftKey: on.map((pair) => pair.left).join(', '),
              rightKey: on.map((pair) => pair.right).join(', '),
              locateLeft: left.locate?.bind(left),
              locateRight: right.locate?.bind(right),
            });
            const out = {
              answer,
              cardinality: check.cardinality,
              inner_join_rows: check.innerJoinRows,
              matched_keys: check.matchedKeys,
              left: sideOut(check.left, left),
              right: sideOut(check.right, right),
              spilled: check.spilled,
            };
            const parts: string[] = [];
            if (check.truncated)
              parts.push(
                `samples: at most ${args.limit} keys per list and ${args.rows_per_sample} rows per key`,
              );
            const warnings = [...(left.warnings ?? []), ...(right.warnings ?? [])];
            // The samples fit the call's budget as one list, the last lists' samples dropped first.
            type Listed = {
              list: 'orphans' | 'duplicates';
              side: 'left' | 'right';
              sample: ReturnType<typeof sampleOut>;
            };
            const listed: Listed[] = [];
            for (const list of ['orphans', 'duplicates'] as const)
              for (const side of ['left', 'right'] as const)
                for (const sample of out[side][list]) listed.push({ list, side, sample });
            const { answer: fitted } = await fitList(listed, {
              budget: ctx.answer,
              frame: (kept) => {
                const all = [...parts];
                const dropped = listed.length - kept.length;
                if (dropped > 0)
                  all.push(
                    `size: ${dropped} sample(s) dropped to keep the answer within ${ctx.answer.maxTokens} tokens; raise max_tokens or lower limit`,
                  );
                const only = (side: 'left' | 'right', list: Listed['list']) =>
                  kept.filter((item) => item.side === side && item.list === list).map((item) => item.sample);
                return {
                  ...out,
                  left: {
                    ...out.left,
                    orphans: only('left', 'orphans'),
                    duplicates: only('left', 'duplicates'),
                  },
                  right: {
                    ...out.right,
                    orphans: only('right', 'orphans'),
                    duplicates: only('right', 'duplicates'),
                  },
                  truncated: all.length > 0,
                  ...(all.length > 0 ? { truncated_parts: all } : {}),
                  ...(warnings.length > 0 ? { warnings } : {}),
                };
              },
            });
            return ToolResult.success(fitted);
          }),
        ),
      ),
    );
  },
});
