import path from 'node:path';
import {
  cursorKey,
  defineTool,
  fitList,
  InvalidArgumentError,
  optionalString,
  pagingArguments,
  pagingOutput,
  pathArg,
  type ToolContext,
  ToolError,
  ToolResult,
} from '@groundwork/mcp-common';
import { type GitRepository, GitUnavailableError, openGitRepository } from '@groundwork/mcp-common/git';
import { z } from 'zod';
import { clusterFailures } from '../core/failureClusters.js';
import { findProjectRoot } from '../core/staleness.js';
import { gatherEvidence } from '../core/suspects/failureEvidence.js';
import { literal } from '../core/suspects/gitHistory.js';
import { findSuspects } from '../core/suspects/suspectCommits.js';
import { resolveRange } from '../core/suspects/suspectRange.js';
import { testKey } from '../core/testResult.js';
import { type FoldedTest, isFailing, type TestRun, testId } from '../core/testRun.js';
import { readReportsAt, readsReports } from './reportReading.js';

const MAX_HISTORY = 20;
const MAX_EVIDENCE_SHOWN = 20;

const hunkOutput = z.object({
  file: z.string(),
  old_start: z.number().int(),
  old_lines: z.number().int(),
  new_start: z.number().int(),
  new_lines: z.number().int(),
  removed: z.array(z.string()),
  added: z.array(z.string()),
});

export const suspectCommitsTool = defineTool({
  definition: {
    name: 'suspect_commits',
    title: 'Suspect commits',
    description:
      "The commits that likely caused a failure cluster (or one failure), ranked: among the commits between a good state and HEAD — the `base` given, else the newest run of `history` in which the failing tests passed, else the merge-base with the default branch — those that wrote the lines of its failing frames (blame), or changed the frames' files and the code under test (the failing test files' imports and namesakes). Each with why, the frame lines it wrote and the lines it changed. git runs hardened (no hooks, fsmonitor, external diff or textconv), inside the allowed directories only. Paged.",
    input: z.object({
      path: pathArg('The report file or directory of the failing run (as given to failure_clusters).'),
      cluster: optionalString('A cluster id from failure_clusters (or list_failures with group).'),
      id: optionalString('Instead of a cluster: one failure id from list_failures.'),
      root: optionalString(
        'The git repository (or a folder in it) the stack paths refer to. Default: the project directory above the reports.',
      ),
      base: optionalString(
        'The good state: a branch, tag or commit after which the cause was committed. Default: see history, then the merge-base of HEAD with the default branch.',
      ),
      history: z
        .array(
          z.object({
            path: z.string().min(1).describe("An earlier run's report file or directory."),
            commit: z.string().min(1).describe('The commit that run tested.'),
          }),
        )
        .max(MAX_HISTORY)
        .optional()
        .describe(
          'Earlier runs and the commit each tested: without base, the newest one (an ancestor of HEAD) in which the failing tests passed is the good state.',
        ),
      ...pagingArguments,
    }),
    output: z.object({
      target: z.object({
        cluster: z.string().optional(),
        id: z.string().optional(),
        failures: z.number().int().describe('Failures of the cluster (1 for one failure).'),
        examined: z.number().int().describe('Failures whose frames were read (the first of a cluster).'),
      }),
      range: z.object({
        base: z.string().optional().describe('The good state (absent: the whole history of HEAD).'),
        head: z.string(),
        how: z.enum(['given', 'last_passing_run', 'merge_base', 'recent_history']),
        description: z.string(),
        commits: z.number().int().describe('Commits between base and head.'),
      }),
      evidence: z.object({
        frames: z
          .array(
            z.object({
              file: z.string(),
              line: z.number().int(),
              role: z.enum(['code_under_test', 'test']),
              weight: z.number(),
              failures: z.number().int(),
            }),
          )
          .describe(
            `The failing frames' lines in the repository, weightiest first (at most ${MAX_EVIDENCE_SHOWN}).`,
          ),
        code_under_test: z
          .array(z.string())
          .describe('Files the failing tests exercise that no frame names (imports, namesakes).'),
        uncommitted: z
          .array(z.string())
          .describe('Evidence files that differ from HEAD in the work tree: the cause may not be committed.'),
      }),
      suspects: z.array(
        z.object({
          commit: z.string(),
          author: z.string(),
          date: z.string(),
          subject: z.string(),
          score: z.number(),
          reasons: z.array(z.string()),
          wrote: z
            .array(z.object({ file: z.string(), line: z.number().int() }))
            .describe('Failing frame lines this commit last wrote.'),
          changes: z.array(hunkOutput).describe('What it changed in the evidence files (no context lines).'),
        }),
      ),
      ...pagingOutput,
      note: z.string().optional(),
    }),
    // Reads the reports and walks git history.
    ...readsReports,
  },
  async apply(args, ctx) {
    if ((args.cluster === undefined) === (args.id === undefined)) {
      throw new InvalidArgumentError(
        args.cluster === undefined ? 'cluster' : 'id',
        "give either 'cluster' (an id from failure_clusters) or 'id' (a failure id from list_failures), not both or neither.",
      );
    }
    const { run, target } = await readReportsAt(args.path, ctx, {
      details: true,
      signatures: args.cluster !== undefined,
    });
    const failing = run.tests.values().filter(isFailing);
    const failures = chosenFailures(failing, args.cluster, args.id);
    const projectRoot =
      args.root === undefined
        ? await findProjectRoot(path.dirname(run.reports[0]?.file ?? target), ctx.allowedPaths)
        : await realDirectory(args.root, ctx);
    const repo = await repositoryAt(projectRoot, args.root === undefined ? 'path' : 'root', ctx);
    const passingRuns = await passingRunsOf(args.history ?? [], failures, ctx);
    const range = await resolveRange(
      repo,
      { ...(args.base === undefined ? {} : { base: args.base }), passingRuns },
      ctx.signal,
    );
    const evidence = await gatherEvidence(failures, {
      root: projectRoot,
      topLevel: repo.topLevel,
      access: ctx.allowedPaths,
    });
    const found = await findSuspects(repo, evidence, range, ctx.signal);
    const uncommitted = await uncommittedOf(repo, [...new Set(evidence.lines.map((line) => line.file))], ctx);
    const note =
      evidence.lines.length === 0 && found.subjects.length === 0
        ? 'No frame of these failures names a file of this repository, so no commit can be tied to them: pass root if the stack paths refer to another checkout.'
        : found.suspects.length === 0
          ? `No commit between the base and HEAD touched the failing frames' files or the code under test (${range.description}); try an older base.`
          : undefined;
    const frame = {
      target: {
        ...(args.cluster === undefined ? {} : { cluster: args.cluster }),
        ...(args.id === undefined ? {} : { id: args.id }),
        failures: failures.length,
        examined: evidence.examined,
      },
      range: {
        ...(range.base === undefined ? {} : { base: range.base }),
        head: range.head,
        how: range.how,
        description: range.description,
        commits: found.commits_in_range,
      },
      evidence: {
        frames: evidence.lines.slice(0, MAX_EVIDENCE_SHOWN),
        code_under_test: found.subjects,
        uncommitted,
      },
    };
    const { answer } = await fitList(found.suspects, {
      budget: ctx.answer,
      cursor: args.cursor,
      cursorKey: cursorKey({
        tool: 'suspect_commits',
        path: args.path,
        cluster: args.cluster,
        id: args.id,
        root: args.root,
        range,
      }),
      frame: (page, paging) => ({
        ...frame,
        suspects: page,
        ...paging,
        ...(note === undefined ? {} : { note }),
      }),
    });
    return ToolResult.success(answer);
  },
});

/** The failures of the cluster (or the one failure) the call names. */
function chosenFailures(
  failing: readonly FoldedTest[],
  cluster: string | undefined,
  id: string | undefined,
): FoldedTest[] {
  if (id !== undefined) {
    const test = failing.find((candidate) => testId(candidate) === id);
    if (test === undefined) {
      throw new ToolError(
        'FAILURE_NOT_FOUND',
        `No failure with id '${id}' in these reports; call list_failures for the ids.`,
      );
    }
    return [test];
  }
  const found = clusterFailures(failing).find((candidate) => candidate.id === cluster);
  if (found === undefined) {
    throw new ToolError(
      'CLUSTER_NOT_FOUND',
      `No cluster with id '${cluster}' in these reports; call failure_clusters for the ids.`,
    );
  }
  return found.members;
}

async function realDirectory(given: string, ctx: ToolContext): Promise<string> {
  const directory = await ctx.allowedPaths.openDirectory(given, { signal: ctx.signal });
  await directory.close();
  return directory.realPath;
}

async function repositoryAt(folder: string, argument: string, ctx: ToolContext): Promise<GitRepository> {
  try {
    return await openGitRepository(folder, {
      contains: (real) => ctx.allowedPaths.contains(real),
      signal: ctx.signal,
    });
  } catch (error) {
    if (!(error instanceof GitUnavailableError)) throw error;
    const where =
      argument === 'root'
        ? `'${ctx.allowedPaths.display(folder)}'`
        : `the project of these reports ('${ctx.allowedPaths.display(folder)}')`;
    throw new ToolError(
      error.code,
      `Invalid argument '${argument}': ${where} is not in a git repository git may read: ${error.message}${argument === 'path' ? " Pass 'root' for the repository the tests ran from." : ''}`,
    );
  }
}

/** The history runs in which every failing test ran and passed, with the commit each tested. */
async function passingRunsOf(
  history: readonly { path: string; commit: string }[],
  failures: readonly FoldedTest[],
  ctx: ToolContext,
): Promise<{ commit: string; name: string }[]> {
  const passing: { commit: string; name: string }[] = [];
  for (const entry of history) {
    const { run } = await readReportsAt(entry.path, ctx, { details: false });
    if (passedIn(run, failures))
      passing.push({ commit: entry.commit, name: `${entry.path} at ${entry.commit}` });
  }
  return passing;
}

function passedIn(run: TestRun, failures: readonly FoldedTest[]): boolean {
  return failures.every((test) => run.tests.get(testKey(test))?.status === 'passed');
}

async function uncommittedOf(
  repo: GitRepository,
  files: readonly string[],
  ctx: ToolContext,
): Promise<string[]> {
  if (files.length === 0) return [];
  const result = await repo.run(
    ['diff', '--name-only', '-z', '--no-relative', 'HEAD', '--', ...files.map(literal)],
    { signal: ctx.signal },
  );
  return result.code === 0 ? result.stdout.split('\0').filter((name) => name !== '') : [];
}
