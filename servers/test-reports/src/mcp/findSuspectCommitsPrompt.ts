import { completePath, definePrompt } from '@groundwork/mcp-common';
import { completeClusterId } from './clusterIdCompletion.js';

export const findSuspectCommitsPrompt = definePrompt({
  definition: {
    name: 'find-suspect-commits',
    title: 'Which commit broke these tests?',
    description:
      'Names the commit that most likely caused one cluster of failures (one cause): the commits since a good state that wrote its failing frame lines or changed their files, checked against the failure itself.',
    arguments: [
      {
        name: 'path',
        description: 'The failing run: a report file, or the folder holding its reports.',
        required: true,
        complete: completePath({ kind: 'any' }),
      },
      {
        name: 'cluster',
        description:
          'The cluster id (from failure_clusters; completes to the clusters of the reports at path, largest first).',
        required: true,
        complete: completeClusterId,
      },
      {
        name: 'base',
        description:
          'Optional: the good state (a branch, tag or commit); default: the merge-base with the default branch.',
      },
    ],
  },
  async render({ path, cluster, base }) {
    const args = { path, cluster, ...(base === undefined || base === '' ? {} : { base }) };
    return [
      {
        role: 'user',
        text: [
          `Find the commit that most likely caused the failure cluster ${JSON.stringify(cluster)} of the reports at ${JSON.stringify(path)}, with the groundwork-test-reports tools.`,
          '',
          `1. Call \`suspect_commits\` with \`${JSON.stringify(args)}\`. If it answers CLUSTER_NOT_FOUND, call \`failure_clusters\` with \`${JSON.stringify({ path })}\` and take the id from there. Read \`range\` (which commits were searched), \`evidence\` (the failing frames, the code under test, uncommitted files) and the ranked \`suspects\`: \`wrote\` names the failing frame lines a commit last wrote, \`changes\` what it changed.`,
          `2. Call \`failure_context\` with \`${JSON.stringify({ path, id: '<a member id from failure_clusters>' })}\` for the failure itself: \`expected\`/\`actual\` and the source lines.`,
          "3. Check the top suspects' `changes` against the failure: does the change explain the message and the failing line? If `evidence.uncommitted` lists a frame file, the cause may not be committed.",
          '',
          'Answer with the commit (hash and subject), the lines of it that cause the failure and why, or say that no suspect explains it and what to look at next.',
        ].join('\n'),
      },
    ];
  },
});
