import { completePath, definePrompt } from '@groundwork/mcp-common';

const completeReports = completePath({ kind: 'any' });

export const triageRedCiRunPrompt = definePrompt({
  definition: {
    name: 'triage-red-ci-run',
    title: 'Triage a red CI run',
    description:
      'Why is this test run red? Counts the run, groups its failures by cause (clusters), explains one failure per cause with its source lines, names the commits that likely caused each, and (given a reference run) separates new failures from old ones. The workflow of the triage-red-ci-run skill.',
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
      `2. Call \`failure_clusters\` with \`${JSON.stringify({ path })}\`: one cluster per cause (same exception type, masked message and first project frame), largest first. While \`truncated\` is true, call it again with \`cursor\` set to \`next_cursor\`. Work cluster by cluster; \`list_failures\` with \`${JSON.stringify({ path, group: true })}\` lists each failure under its \`cluster_id\`.`,
      `3. For each cluster, call \`failure_context\` with \`${JSON.stringify({ path, id: '<the representative id>' })}\`. Read \`expected\`/\`actual\` and the numbered \`sources\` snippets of the test and of the code under test; raise \`max_tokens\` if \`truncated\` is true.`,
      `4. When the cause is not plain from those lines, call \`suspect_commits\` with \`${JSON.stringify({ path, cluster: '<cluster id>' })}\`: the commits since the merge-base with the default branch (or a \`base\` you pass) that wrote the failing frame lines (\`wrote\`) or changed their files, ranked, each with the lines it changed. Check the top suspect's \`changes\` against the failure before naming it.`,
    ];
    if (base !== undefined && base !== '') {
      steps.push(
        `5. Call \`compare_runs\` with \`${JSON.stringify({ base, head: path })}\`: \`new_failures\` are what changed since the reference run, \`still_failing\` were red before it, and \`newly_skipped\` tests are not fixed.`,
      );
    }
    steps.push(
      '',
      'Answer with one entry per cause: the tests it breaks (by name), the failing line of the test and of the code under test, whether the test or the code is wrong, and the fix. Say which reports you read, and never call a list complete while it was truncated.',
    );
    return [{ role: 'user', text: steps.join('\n') }];
  },
});
