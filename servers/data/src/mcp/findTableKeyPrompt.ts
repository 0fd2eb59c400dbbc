import { definePrompt } from '@groundwork/mcp-common';
import { columnsPromptArgument, listOf, sourceCallArguments, sourcePromptArguments } from './promptSource.js';

export const findTableKeyPrompt = definePrompt({
  definition: {
    name: 'find-table-key',
    title: 'Find the key of a table',
    description:
      'Finds the column or column combination that identifies each row of a data file or table, confirms it exactly and shows the rows that break it. The workflow of the find-table-key skill.',
    arguments: [
      ...sourcePromptArguments,
      columnsPromptArgument('Optional: only consider these columns, comma-separated (default: all).', false),
    ],
  },
  async render(args) {
    const source = sourceCallArguments(args);
    const columns = listOf(args.columns);
    const keys = { ...source, ...(columns.length > 0 ? { columns } : {}), max_columns: 3 };
    return [
      {
        role: 'user',
        text: [
          `Find the key of the data at ${JSON.stringify(source)} and check it, with the groundwork-data tools.`,
          '',
          `1. Call \`find_keys\` with \`${JSON.stringify(keys)}\`. \`keys\` are the minimal unique combinations (one with \`has_nulls: true\` cannot be a primary key); \`near_keys\` are unique except for \`violating_rows\` rows. Choose the key whose meaning is an identifier, with the fewest columns and no nulls. If \`keys\` is empty, raise \`max_columns\` or take the best near-key.`,
          `2. Call \`uniqueness_check\` with \`${JSON.stringify({ ...source, columns: ['<the chosen key columns>'] })}\` to confirm it: \`unique\` is exact; \`nulls\` counts rows with a null in the key.`,
          `3. If it is not unique, call \`find_duplicates\` with the same arguments and look at the largest groups (their \`rows\`, and \`lines\` for text files): true duplicates, versions of one entity (add a column to the key) or errors?`,
          '',
          'Whenever `truncated` is true, `truncated_parts` says what was cut; never present a cut list as complete, and repeat any `warnings`. Answer with the key, the number of rows it was checked on, its nulls, and what to do about the rows that break it. A key found in the data is a fact about these rows, not a constraint.',
        ].join('\n'),
      },
    ];
  },
});
