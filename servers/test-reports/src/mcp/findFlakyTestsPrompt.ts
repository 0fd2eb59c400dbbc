import { completeListItem, completePath, definePrompt } from '@groundwork/mcp-common';

export const findFlakyTestsPrompt = definePrompt({
  definition: {
    name: 'find-flaky-tests',
    title: 'Find flaky tests',
    description:
      'Finds the tests that both passed and failed across several runs (one report folder or file per run) and within a run (retries), and looks into why the worst ones fail. The workflow of the find-flaky-tests skill.',
    arguments: [
      {
        name: 'paths',
        description: 'The runs: report folders or files, one per run, separated by commas.',
        required: true,
        complete: completeListItem(completePath({ kind: 'any' })),
      },
    ],
  },
  async render({ paths }) {
    const runs = (paths ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    return [
      {
        role: 'user',
        text: [
          `Find the flaky tests among these test runs, with the groundwork-test-reports tools: ${JSON.stringify(runs)}.`,
          '',
          `1. Call \`flaky_tests\` with \`${JSON.stringify({ paths: runs })}\`. While \`truncated\` is true, call it again with \`cursor\` set to \`next_cursor\`. Read each test's \`verdict\`, \`confidence\` and \`evidence\`: \`broke_or_flaky\` may be a code change, not a flake; \`enough_runs: false\` means more runs are needed. A \`reports\` entry with \`error\` is a report that could not be parsed: its tests are missing.`,
          '2. For the tests that fail most often, call `failure_context` with `path` = a run where the test failed and its `id`. Look for time, ordering, shared state, network, fixed sleeps and unseeded randomness.',
          '',
          'Answer with each flaky test (name, failed runs and attempts of all), its likely cause and how to make it deterministic. An empty list proves nothing when the report format drops retries (jest-junit, Vitest JUnit, pytest --junitxml, node:test, Playwright JUnit): say so.',
        ].join('\n'),
      },
    ];
  },
});
