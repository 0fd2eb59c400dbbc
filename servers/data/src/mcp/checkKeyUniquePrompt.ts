import { completeFrom, definePrompt } from '@groundwork/mcp-common';
import { columnsPromptArgument, listOf, sourceCallArguments, sourcePromptArguments } from './promptSource.js';

export const checkKeyUniquePrompt = definePrompt({
  definition: {
    name: 'check-key-unique',
    title: 'Check that a key is unique',
    description:
      'Answers exactly whether a column, or a combination of columns, is unique in a data file or table, and lists the groups of rows that share a value when it is not.',
    arguments: [
      ...sourcePromptArguments,
      columnsPromptArgument('The key: one column, or several comma-separated for a compound key.', true),
      {
        name: 'compare',
        description:
          "Optional: 'exact' (default), or 'loose' to ignore surrounding white space and letter case (e-mail addresses, codes typed by people).",
        complete: completeFrom(['exact', 'loose']),
      },
    ],
  },
  async render(args) {
    const loose = args.compare?.trim().toLowerCase() === 'loose';
    const call = {
      ...sourceCallArguments(args),
      columns: listOf(args.columns),
      ...(loose ? { trim: true, case_insensitive: true } : {}),
    };
    return [
      {
        role: 'user',
        text: [
          `Check whether ${JSON.stringify(call.columns)} is a unique key of the data, with the groundwork-data tools.`,
          '',
          `1. Call \`uniqueness_check\` with \`${JSON.stringify(call)}\`. \`unique\` is exact. \`nulls\` counts rows whose key has a null: they never collide (as SQL UNIQUE), but such a key is no primary key. \`duplicate_values\` and \`duplicate_rows\` count the collisions.`,
          `2. If it is not unique, call \`find_duplicates\` with \`${JSON.stringify({ ...call, limit: 20 })}\`; groups come largest first with their row numbers (and \`lines\` for text files), \`total_groups\` counts them all.`,
          '',
          'Whenever `truncated` is true, `truncated_parts` says what was cut. Answer with yes or no, the counts, the comparison used, and for a no: what the largest groups have in common and whether they are true duplicates, versions of one entity or errors.',
        ].join('\n'),
      },
    ];
  },
});
