import { definePrompt } from '@groundwork/mcp-common';
import { columnsPromptArgument, listOf, sourceCallArguments, sourcePromptArguments } from './promptSource.js';

export const profileADatasetPrompt = definePrompt({
  definition: {
    name: 'profile-a-dataset',
    title: 'Profile a dataset',
    description:
      'Describes what is in a data file or table — types, nulls, distinct counts, ranges, frequent values — points out suspect columns, and checks the columns that look like identifiers. The workflow of the profile-a-dataset skill.',
    arguments: [
      ...sourcePromptArguments,
      columnsPromptArgument('Optional: only these columns, comma-separated (default: all).', false),
    ],
  },
  async render(args) {
    const source = sourceCallArguments(args);
    const columns = listOf(args.columns);
    const profile = { ...source, ...(columns.length > 0 ? { columns } : {}), top_values: 5 };
    return [
      {
        role: 'user',
        text: [
          `Describe the data at ${JSON.stringify(source)}, with the groundwork-data tools.`,
          '',
          `1. Call \`profile_columns\` with \`${JSON.stringify(profile)}\`. Per column: \`type\`, \`nulls\`, \`distinct\` (an estimate when \`distinct_estimated\` is true — never proof of uniqueness), \`min\`/\`max\`, lengths and \`top_values\`.`,
          '2. Point out identifier candidates (`distinct` equal to `rows`, no `nulls`), suspect values (placeholders such as N/A, 0 or 1970-01-01 among `top_values`, a `string` column whose values are mostly numbers or dates, empty columns) and impossible ranges.',
          `3. For each identifier candidate that matters, call \`uniqueness_check\` with \`${JSON.stringify({ ...source, columns: ['<the column>'] })}\`: \`unique\` is exact.`,
          '',
          'Whenever `truncated` is true, `truncated_parts` says what was cut (profile fewer columns per call if profiles were dropped); repeat any `warnings`. Answer with a short table of the columns and a list of what looks wrong.',
        ].join('\n'),
      },
    ];
  },
});
