import { completePath, definePrompt } from '@groundwork/mcp-common';
import { completeFailureId } from './failureIdCompletion.js';

export const explainFailurePrompt = definePrompt({
  definition: {
    name: 'explain-failure',
    title: 'Explain one test failure',
    description:
      'Explains one failed test from its report and proposes a fix: the assertion (expected/actual), the trimmed stack and the source lines of the test and of the code under test.',
    arguments: [
      {
        name: 'path',
        description: 'The report file or folder the failure was listed from.',
        required: true,
        complete: completePath({ kind: 'any' }),
      },
      {
        name: 'id',
        description:
          'The failure id (from list_failures; completes to the failing tests of the reports at path).',
        required: true,
        complete: completeFailureId,
      },
      {
        name: 'root',
        description:
          "Optional: the repository the stack's paths refer to (default: the project above the reports).",
        complete: completePath({ kind: 'directory' }),
      },
    ],
  },
  async render({ path, id, root }) {
    const args = { path, id, ...(root === undefined || root === '' ? {} : { root }) };
    return [
      {
        role: 'user',
        text: [
          `Explain the test failure ${JSON.stringify(id)} of the reports at ${JSON.stringify(path)} and propose a fix, with the groundwork-test-reports tools.`,
          '',
          `1. Call \`failure_context\` with \`${JSON.stringify(args)}\`. If it answers FAILURE_NOT_FOUND, call \`list_failures\` with \`${JSON.stringify({ path })}\` and take the id from there.`,
          '2. Read `message`, `expected`/`actual`, the trimmed `stack` and the numbered `sources` snippets (the failing line is marked `>`): the test (`role: "test"`) and the code under test (`role: "code_under_test"`). If `sources` is empty, pass `root` or open the file the stack names. If `truncated` is true, call again with a larger `max_tokens`.',
          '3. Decide whether the test or the code under test is wrong, and say why from the lines you read.',
          '',
          'Answer with the cause in one sentence, the lines involved (file:line), and the change that fixes it.',
        ].join('\n'),
      },
    ];
  },
});
