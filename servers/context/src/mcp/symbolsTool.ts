import { defineTool, requiredString, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { lookupFile } from '../core/fileLookup.js';
import { readProjectFile } from '../core/fileTokens.js';
import { outlineSymbols } from '../core/symbolOutline.js';
import { openProject, projectPathArg, withToolErrors } from './projectAccess.js';

export const symbolsTool = defineTool({
  definition: {
    name: 'symbols',
    title: 'Outline of one file',
    description:
      "A file's top-level declarations (kind, name, 1-based line, whether other files can use it, its first line) — a cheap look before reading the whole file. Works for TypeScript/JavaScript, Python, Java, Kotlin, Scala and Go.",
    input: z.object({
      path: projectPathArg,
      file: requiredString('The file, relative to the project root.'),
    }),
    output: z.object({
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
      truncated: z.boolean(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    const { index, project } = await openProject(args.path, ctx);
    const file = await withToolErrors(async () => lookupFile(project.graph, args.file));
    const language = project.graph.files.get(file)?.language;
    if (language === undefined) return ToolResult.success({ file, symbols: [], truncated: false });
    const symbols = await outlineSymbols(language, file, readProjectFile(index, file));
    return ToolResult.success({ file, language, symbols, truncated: false });
  },
});
