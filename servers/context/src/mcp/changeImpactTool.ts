import {
  cursorKey,
  decodeCursor,
  defineTool,
  fitList,
  optionalBoundedInt,
  pagingArguments,
  pagingOutput,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { analyzeChangeImpact } from '../core/changeImpact/changeImpact.js';
import { RUNNERS } from '../core/changeImpact/testSelection.js';
import { codeStateOutput, fileListArg, openProject, projectPathArg, workControl } from './projectAccess.js';

const impacted = z.object({ path: z.string(), distance: z.number().int() });

export const changeImpactTool = defineTool({
  definition: {
    name: 'change_impact',
    title: 'What a change can break and which tests to run',
    description:
      "After editing (or before merging): the files changed since `base` (a git revision; default the merge-base with the default branch; staged, unstaged and untracked changes included) or the `files` you name; the exported declarations the change adds, removes or modifies (TS/JS, Python, Go, Java/Kotlin/Scala, compared with the base version); every file that imports a changed one, nearest first, through re-exports and barrels; the test files that reach the change, grouped by runner with the command that runs exactly them (vitest, jest, node --test, pytest, go test, mvn, gradle); and a bundle of the changed hunks and the nearest dependents' signatures within `bundle_tokens`. `dependents` come in pages (pass `next_cursor` back as `cursor`). Test detection follows each runner's default file patterns; `test_globs` replaces them.",
    input: z.object({
      path: projectPathArg,
      base: z
        .string()
        .min(1, 'must not be empty')
        .max(256, 'must be at most 256 characters')
        .optional()
        .describe(
          'A git branch, tag or commit to compare the work tree with; default: the merge-base with the default branch.',
        ),
      files: fileListArg(
        'The changed files (relative to the project root), instead of asking git.',
      ).optional(),
      test_globs: stringList(
        'Globs (gitignore syntax, e.g. "**/*.spec.ts") that mark test files, replacing the runners’ defaults.',
      )
        .pipe(z.array(z.string().max(500)).max(50, 'must hold at most 50 globs'))
        .optional(),
      bundle_tokens: optionalBoundedInt(
        0,
        50_000,
        4000,
        'Tokens the bundle of hunks and signatures may cost (0: none).',
      ),
      ...pagingArguments,
    }),
    output: z.object({
      state: codeStateOutput,
      base: z.object({ revision: z.string(), commit: z.string() }).optional(),
      changed_files: z.array(
        z.object({
          path: z.string(),
          status: z.enum(['added', 'modified', 'deleted', 'renamed']),
          previous_path: z.string().optional(),
          untracked: z.boolean().optional(),
        }),
      ),
      changed_declarations: z.array(
        z.object({
          file: z.string(),
          name: z.string(),
          kind: z.string(),
          change: z.enum(['added', 'removed', 'modified']),
          signature: z.string(),
          line: z.number().int(),
        }),
      ),
      tests: z.array(impacted.extend({ runner: z.enum(RUNNERS), reason: z.string().optional() })),
      test_commands: z.array(
        z.object({
          runner: z.enum(RUNNERS),
          cwd: z.string(),
          command: z.string(),
          files: z.array(z.string()),
        }),
      ),
      dependents: z
        .array(impacted)
        .describe('Files that import a changed file, directly or not; nearest first, paged.'),
      bundle: z.object({
        budget_tokens: z.number().int(),
        tokens: z.number().int(),
        hunks: z.array(z.object({ file: z.string(), diff: z.string() })),
        signatures: z.array(z.object({ file: z.string(), distance: z.number().int(), outline: z.string() })),
        omitted: z.number().int(),
      }),
      notes: z.array(z.string()),
      ...pagingOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // A big diff over a big tree runs long: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    await using opened = await openProject(args.path, ctx);
    const { index, project, git, state } = opened;
    const impact = await analyzeChangeImpact(
      index,
      project,
      git,
      state,
      { base: args.base, files: args.files, testGlobs: args.test_globs, bundleTokens: args.bundle_tokens },
      workControl(ctx),
    );
    const key = cursorKey({
      ...args,
      cursor: undefined,
      max_tokens: undefined,
      stamp: project.graph.stamp,
      tree: state.tree_hash,
    });
    const offset = decodeCursor(args.cursor, key);
    // The first page carries everything; later pages only the rest of the dependents.
    const { answer } = await fitList(impact.dependents, {
      budget: ctx.answer,
      offset,
      cursorKey: key,
      frame: (dependents, paging) =>
        offset === 0
          ? { ...impact, dependents, ...paging }
          : {
              ...impact,
              changed_files: [],
              changed_declarations: [],
              tests: [],
              test_commands: [],
              bundle: { ...impact.bundle, hunks: [], signatures: [] },
              dependents,
              ...paging,
            },
    });
    return ToolResult.success(answer);
  },
});
