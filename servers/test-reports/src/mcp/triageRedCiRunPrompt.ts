import { completePath, definePrompt } from '@groundwork/mcp-common';

const completeReports = completePath({ kind: 'any' });

export const triageRedCiRunPrompt = definePrompt({
  definition: {
    name: 'triage-red-ci-run',
    title: 'Triage a red CI run',
    description:
      'Why is this test run red? Counts the run, lists its failures page by page, explains one failure per cause with its source lines, and (given a reference run) separates new failures from old ones. The workflow of the triage-red-ci-run skill.',
    arguments: [
      {
        name: 'path',
        description: 'The red run: a report file, or the folder holding its reports.',
        required: true,
        complete: completeReports,
      },
      {
        name: 'base',
        description: 'Optional: the reports of a reference run (e.g. the main branch) to compare with.',
        complete: completeReports,
      },
    ],
  },
  async render({ path, base }) {
    const steps = [
      `Find out why the test run whose reports are at ${JSON.stringify(path)} is red, with the groundwork-test-reports tools.`,
      '',
      `1. Call \`test_summary\` with \`${JSON.stringify({ path })}\`. Read \`verdict\` first: \`failing\` → go on; \`all_green\` → the red comes from another step (lint, build, a crash before the reports were written): stop and say so; \`unreadable\` → a report could not be parsed (\`reports[].error\`), so the run is not green; \`no_tests\` → the reports are empty. If \`stale\` is true, say that the reports are older than the sources.`,
      `2. Call \`list_failures\` with \`${JSON.stringify({ path, limit: 50 })}\`. While \`truncated\` is true, call it again with \`offset\` set to \`next_offset\`. Group the failures that share a message, an exception type or a stack frame: one cause, one group.`,
      `3. For one failure of each group, call \`failure_context\` with \`${JSON.stringify({ path, id: '<id from list_failures>' })}\`. Read \`expected\`/\`actual\` and the numbered \`sources\` snippets of the test and of the code under test; raise \`max_tokens\` if \`truncated\` is true.`,
    ];
    if (base !== undefined && base !== '') {
      steps.push(
        `4. Call \`compare_runs\` with \`${JSON.stringify({ base, head: path })}\`: \`new_failures\` are what changed since the reference run, \`still_failing\` were red before it, and \`newly_skipped\` tests are not fixed.`,
      );
    }
    steps.push(
      '',
      'Answer with one entry per cause: the tests it breaks (by name), the failing line of the test and of the code under test, whether the test or the code is wrong, and the fix. Say which reports you read, and never call a list complete while it was truncated.',
    );
    return [{ role: 'user', text: steps.join('\n') }];
  },
});
