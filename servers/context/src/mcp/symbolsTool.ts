import { defineTool, fitList, pagingArguments, pagingOutput, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { lookupFile } from '../core/fileLookup.js';
import { readProjectFile } from '../core/fileTokens.js';
import { outlineSymbols } from '../core/symbolOutline.js';
import { codeStateOutput, fileArg, openProject, pageKey, projectPathArg } from './projectAccess.js';

export const symbolsTool = defineTool({
  definition: {
    name: 'symbols',
    title: 'Outline of one file',
    description:
      "A file's top-level declarations (kind, name, 1-based line, whether other files can use it, its first line) — a cheap look before reading the whole file. Works for TypeScript/JavaScript, Python, Java, Kotlin, Scala and Go.",
    input: z.object({
      path: projectPathArg,
      file: fileArg('The file, relative to the project root.'),
      ...pagingArguments,
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
          exported_as: z
            .array(z.string())
            .optional()
            .describe('The names `export { local as name }` exports it under, when not (only) its own.'),
          signature: z.string(),
        }),
      ),
      ...pagingOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    await using opened = await openProject(args.path, ctx);
    const { project } = opened;
    const file = lookupFile(project.graph, args.file);
    const language = project.graph.files.get(file)?.language;
    if (language === undefined)
      return ToolResult.success({ state: opened.state, file, symbols: [], truncated: false, total: 0 });
    const symbols = (
      await outlineSymbols(language, file, await readProjectFile(project, file, ctx.signal))
    ).map(({ exportedAs, ...symbol }) =>
      exportedAs === undefined ? symbol : { ...symbol, exported_as: exportedAs },
    );
    const key = pageKey(project.graph.stamp, args);
    const { answer } = await fitList(symbols, {
      budget: ctx.answer,
      cursor: args.cursor,
      cursorKey: key,
      frame: (run, paging) => ({ state: opened.state, file, language, symbols: run, ...paging }),
    });
    return ToolResult.success(answer);
  },
});
