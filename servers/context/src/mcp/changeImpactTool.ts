import {
  type AnswerBudget,
  answerBudget,
  answerFits,
  cursorKey,
  decodeCursor,
  defineTool,
  encodeCursor,
  fitList,
  optionalBoundedInt,
  pagingArguments,
  pagingOutput,
  stringList,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';
import { analyzeChangeImpact } from '../core/changeImpact/changeImpact.js';
import { RUNNERS, type TestGroup } from '../core/changeImpact/testSelection.js';
import { codeStateOutput, fileListArg, openProject, projectPathArg, workControl } from './projectAccess.js';

const impacted = z.object({ path: z.string(), distance: z.number().int() });

/** The lists of the answer that page, in the order the first page fills them. */
const PAGED = ['changed_files', 'tests', 'changed_declarations', 'dependents'] as const;
type PagedList = (typeof PAGED)[number];
type Lists = Record<PagedList, unknown[]>;

/** An output object with one `schema` field per paged list. */
function perList<T extends z.ZodType>(schema: T) {
  return z.object({ changed_files: schema, tests: schema, changed_declarations: schema, dependents: schema });
}

export const changeImpactTool = defineTool({
  definition: {
    name: 'change_impact',
    title: 'What a change can break and which tests to run',
    description:
      "After editing (or before merging): the files changed since `base` (a git revision; default the merge-base with the default branch; staged, unstaged and untracked changes included) or the `files` you name; the exported declarations the change adds, removes or modifies (TS/JS, Python, Go, Java/Kotlin/Scala, compared with the base version); every file that imports a changed one, nearest first, through re-exports and barrels; the test files that reach the change, grouped by runner with the command that runs exactly them (vitest, jest, node --test, pytest, go test, mvn, gradle); and a bundle of the changed hunks and the nearest dependents' signatures within `bundle_tokens`. Every list comes in pages: a list cut short has its cursor in `cursors` (pass it back as `cursor` for the rest of that list; `next_cursor` is the dependents'). Test detection follows each runner's default file patterns; `test_globs` replaces them.",
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
      totals: perList(z.number().int()).describe('How many items each list holds in all.'),
      cursors: perList(z.string().optional()).describe(
        "For each list cut short: pass it as 'cursor' (same other arguments) for the next page of that list alone.",
      ),
      page_of: z.enum(PAGED).optional().describe('On a later page: the one list it continues.'),
      ...pagingOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    // A big diff over a big tree runs long: a client that supports tasks may run it as one.
    taskSupport: 'optional',
  },
  async apply(args, ctx) {
    await using opened = await openProject(args.path, ctx);
    const { index, project, git, state } = opened;
    // The bundle is part of the answer: at most half of the answer's budget, whatever was asked.
    const bundleTokens = Math.min(args.bundle_tokens, Math.floor(ctx.answer.maxTokens / 2));
    const impact = await analyzeChangeImpact(
      index,
      project,
      git,
      state,
      { base: args.base, files: args.files, testGlobs: args.test_globs, bundleTokens },
      workControl(ctx),
    );
    if (bundleTokens < args.bundle_tokens)
      impact.notes.push(
        `bundle_tokens lowered to ${bundleTokens}: the bundle may take at most half of the answer's max_tokens.`,
      );
    const keyOf = (list: PagedList) =>
      cursorKey({
        ...args,
        cursor: undefined,
        max_tokens: undefined,
        stamp: project.graph.stamp,
        tree: state.tree_hash,
        list,
      });
    const totals = Object.fromEntries(PAGED.map((list) => [list, impact[list].length])) as Record<
      PagedList,
      number
    >;
    const commands = boundedCommands(impact.test_commands, ctx.answer.maxChars);
    const empty: Lists = { changed_files: [], tests: [], changed_declarations: [], dependents: [] };

    // A later page continues one list (the one its cursor was handed out for) and carries only that list.
    if (args.cursor !== undefined) {
      const list = PAGED.find((name) => cursorIsFor(args.cursor!, keyOf(name)));
      const paged = list ?? 'dependents';
      const { answer } = await fitList<unknown, object>(impact[paged], {
        budget: ctx.answer,
        cursor: args.cursor,
        cursorKey: keyOf(paged),
        frame: (items, paging) => ({
          ...impact,
          ...empty,
          [paged]: items,
          test_commands: [],
          bundle: { ...impact.bundle, hunks: [], signatures: [] },
          totals,
          page_of: paged,
          cursors: paging.next_cursor === undefined ? {} : { [paged]: paging.next_cursor },
          ...paging,
        }),
      });
      return ToolResult.success(answer);
    }

    // The first page: each list in turn (changed files, tests, declarations, dependents) takes what fits,
    // leaving room for the first items of the lists after it; a cut list gets its own cursor in `cursors`.
    const frameWith = (lists: Lists, listCursors: Partial<Record<PagedList, string>>) => {
      const truncated = PAGED.some((name) => listCursors[name] !== undefined);
      return {
        ...impact,
        ...lists,
        test_commands: commands,
        totals,
        cursors: listCursors,
        truncated,
        total: impact.dependents.length,
        ...(listCursors.dependents === undefined ? {} : { next_cursor: listCursors.dependents }),
      };
    };
    const firstPage = async (budgetOf: (maxTokens: number) => AnswerBudget) => {
      const fitted: Lists = { ...empty };
      const cursors: Partial<Record<PagedList, string>> = {};
      for (const [position, list] of PAGED.entries()) {
        const later = PAGED.length - position - 1;
        const reserve = Math.min(later * LIST_RESERVE_TOKENS, Math.floor(ctx.answer.maxTokens / 2));
        const { items, nextOffset } = await fitList<unknown, object>(impact[list], {
          budget: budgetOf(Math.max(1, ctx.answer.maxTokens - reserve)),
          cursorKey: keyOf(list),
          frame: (run, paging) =>
            frameWith(
              { ...fitted, [list]: run },
              paging.next_cursor === undefined ? cursors : { ...cursors, [list]: paging.next_cursor },
            ),
        });
        (fitted as Record<PagedList, unknown[]>)[list] = items;
        if (nextOffset !== undefined) cursors[list] = encodeCursor(nextOffset, keyOf(list));
      }
      return frameWith(fitted, cursors);
    };
    // Fitted by characters first, which bind for most answers, and then counted once (the registry's check
    // of the same text is then a comparison); only when the tokens bind is each list fitted by them.
    const byCharacters = await firstPage((maxTokens) => ({
      maxTokens: Number.MAX_SAFE_INTEGER,
      maxChars: answerBudget(maxTokens).maxChars,
    }));
    if (await answerFits(byCharacters, ctx.answer)) return ToolResult.success(byCharacters);
    return ToolResult.success(await firstPage(answerBudget));
  },
});

/** Tokens the first page keeps free for each list still to come. */
const LIST_RESERVE_TOKENS = 1500;
/** A command longer than this is not one to paste: the group says to run the runner on its files instead. */
const MAX_COMMAND_CHARS = 2000;

function cursorIsFor(cursor: string, key: string): boolean {
  try {
    decodeCursor(cursor, key);
    return true;
  } catch {
    return false;
  }
}

/**
 * The commands, kept within a tenth of the answer: a group with too many files to name in one command says
 * so (its files are in `tests`), and the file lists go when they are what would not fit.
 */
function boundedCommands(groups: readonly TestGroup[], maxChars: number): TestGroup[] {
  const shortened = groups.map((group) =>
    group.command.length <= MAX_COMMAND_CHARS
      ? group
      : {
          ...group,
          command: `${group.command.slice(0, group.command.indexOf(' ', group.command.indexOf(' ') + 1))} … (${group.files.length} files: run them in batches from 'tests', or the whole suite)`,
        },
  );
  if (JSON.stringify(shortened).length <= maxChars / 10) return shortened;
  return shortened.map((group) => ({ ...group, files: [] }));
}
