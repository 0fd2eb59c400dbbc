import { defineTool, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { decodeCursor, encodeCursor, fitPage } from '../core/answerSize.js';
import { lookupFile } from '../core/fileLookup.js';
import { readProjectFile } from '../core/fileTokens.js';
import { outlineSymbols } from '../core/symbolOutline.js';
import {
  codeStateOutput,
  cursorArg,
  fileArg,
  maxTokensArg,
  openProject,
  projectPathArg,
  withToolErrors,
} from './projectAccess.js';

export const symbolsTool = defineTool({
  definition: {
    name: 'symbols',
    title: 'Outline of one file',
    description:
      "A file's top-level declarations (kind, name, 1-based line, whether other files can use it, its first line) — a cheap look before reading the whole file. Works for TypeScript/JavaScript, Python, Java, Kotlin, Scala and Go.",
    input: z.object({
      path: projectPathArg,
      file: fileArg('The file, relative to the project root.'),
      max_tokens: maxTokensArg,
      cursor: cursorArg,
    }),
    output: z.object({
      state: codeStateOutput,
      file: z.string(),
      language: z.string().optional(),
      symbols: z.array(
        z.object({
          kind: z.string(),
          name: z.string(),
          line: z.number().int(),
          exported: z.boolean(),
          signature: z.string(),
        }),
      ),
      next_cursor: z.string().optional(),
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    await using opened = await openProject(args.path, ctx);
    const { project } = opened;
    const file = await withToolErrors(async () => lookupFile(project.graph, args.file));
    const language = project.graph.files.get(file)?.language;
    if (language === undefined)
      return ToolResult.success({ state: opened.state, ...{ file, symbols: [], truncated: false } });
    const symbols = await withToolErrors(async () =>
      outlineSymbols(language, file, await readProjectFile(project, file, ctx.signal)),
    );
    const { stamp } = project.graph;
    const offset = await withToolErrors(async () => decodeCursor(args.cursor, stamp));
    const answer = (run: typeof symbols, next?: number) => ({
      file,
      language,
      symbols: run,
      ...(next === undefined ? {} : { next_cursor: encodeCursor(next, stamp) }),
      truncated: next !== undefined,
    });
    const page = await fitPage(symbols, offset, args.max_tokens, (run) => answer(run, offset));
    return ToolResult.success({ state: opened.state, ...answer(page.items, page.nextOffset) });
  },
});
