import {
  completeFrom,
  definePrompt,
  InvalidArgumentError,
  type PromptArgument,
} from '@groundwork/mcp-common';
import { listOf } from './promptSource.js';
import { completeDataFile, completeJoinOn, completeTableOf } from './sourceCompletion.js';

/** `left_file`, `left_table`, `left_connection_env` (and the same for `right_`): one source per side. */
function sideArguments(side: 'left' | 'right'): PromptArgument[] {
  return [
    {
      name: `${side}_file`,
      description: `The ${side} data file (CSV/TSV, gzip, JSON Lines, Parquet), or 'sqlite:<path>' (then give ${side}_table). Leave empty for PostgreSQL.`,
      complete: completeDataFile,
    },
    {
      name: `${side}_table`,
      description: `SQLite or PostgreSQL only: the ${side} table.`,
      complete: completeTableOf(`${side}_`),
    },
    {
      name: `${side}_connection_env`,
      description: `PostgreSQL only: the NAME of the server's environment variable holding the ${side} side's connection URL.`,
    },
  ];
}

function sideCall(args: Readonly<Record<string, string>>, side: 'left' | 'right'): Record<string, string> {
  const call: Record<string, string> = {};
  for (const name of ['file', 'table', 'connection_env']) {
    const value = args[`${side}_${name}`];
    if (value !== undefined && value !== '') call[name] = value;
  }
  if (call.file === undefined && call.connection_env === undefined) {
    throw new InvalidArgumentError(
      `${side}_file`,
      `name the ${side} data: a file, 'sqlite:<path>' with a table, or a connection_env with a table`,
    );
  }
  return call;
}

export const checkJoinPrompt = definePrompt({
  definition: {
    name: 'check-join',
    title: 'Check a join before writing it',
    description:
      'Says exactly what joining two files or tables on some columns does — rows out, which side multiplies rows, orphan keys, null keys — so the join (SQL, pandas, dbt) is written knowing it.',
    arguments: [
      ...sideArguments('left'),
      ...sideArguments('right'),
      {
        name: 'on',
        description:
          "The key: comma-separated pairs, 'name' when both sides call the column so, else 'left_column=right_column'.",
        required: true,
        complete: completeJoinOn,
      },
      {
        name: 'compare',
        description:
          "Optional: 'exact' (default), or 'loose' to ignore surrounding white space and letter case.",
        complete: completeFrom(['exact', 'loose']),
      },
    ],
  },
  async render(args) {
    const loose = args.compare?.trim().toLowerCase() === 'loose';
    const call = {
      left: sideCall(args, 'left'),
      right: sideCall(args, 'right'),
      on: listOf(args.on),
      ...(loose ? { trim: true, case_insensitive: true } : {}),
    };
    const rightKey = call.on.map((pair) => pair.split('=').at(-1)!.trim());
    return [
      {
        role: 'user',
        text: [
          'Before writing this join, check what it does with the groundwork-data tools.',
          '',
          `1. Call \`join_check\` with \`${JSON.stringify(call)}\`. Read \`answer\` first; then \`cardinality\` (1:1, 1:n, n:1, n:m over the keys both sides have), \`inner_join_rows\` against each side's \`rows\`, each side's \`matches_per_row\` (how many partners its rows find), \`orphans\` (keys an inner join drops, with rows and lines) and \`null_keys\` (rows that match nothing).`,
          `2. If the right side's key is not unique (\`right.unique\` false), call \`find_duplicates\` with \`${JSON.stringify({ ...call.right, columns: rightKey, ...(loose ? { trim: true, case_insensitive: true } : {}) })}\` to see whether the duplicates are true copies, versions of one entity, or errors.`,
          '',
          'Then write the join so it does what is meant: deduplicate or aggregate the side whose duplicated keys multiply rows, choose inner or outer by what should happen to the orphans, and say which rows the result drops or repeats. Whenever `truncated` is true, `truncated_parts` says what was cut.',
          `3. If the join relies on the right key staying unique and every left key finding a partner, call \`key_checks\` with \`${JSON.stringify({ ...call.left, columns: call.on.map((pair) => pair.split('=')[0]!.trim()), references: { ...call.right, columns: rightKey } })}\` and offer its dbt test, Great Expectations suite or SQL FOREIGN KEY; \`holds\` says whether they pass today.`,
        ].join('\n'),
      },
    ];
  },
});
