#!/usr/bin/env node
// A server for mcp-common's confinement wire tests: it reads, lists and writes client-named paths only through
// ctx.allowedPaths, the way every groundwork server does.
import { mkdir } from 'node:fs/promises';
import {
  completeFrom,
  completePath,
  definePrompt,
  defineTool,
  pathArg,
  requiredString,
  runServer,
  ToolResult,
} from '@groundwork/mcp-common';
import { z } from 'zod';

const MAX_BYTES = 1024 * 1024;

const readText = defineTool({
  definition: {
    name: 'read_text',
    title: 'Read text',
    description: 'Returns the text of a file (at most 1 MiB).',
    input: z.object({ path: pathArg('The file.') }),
    annotations: { readOnlyHint: true },
  },
  async apply({ path }, ctx) {
    await using file = await ctx.allowedPaths.openFile(path, { signal: ctx.signal });
    return ToolResult.success(await file.readText({ maxBytes: MAX_BYTES, signal: ctx.signal }));
  },
});

const listEntries = defineTool({
  definition: {
    name: 'list_entries',
    title: 'List entries',
    description: 'Returns the names and kinds in a folder, sorted by name.',
    input: z.object({ path: pathArg('The folder.') }),
    annotations: { readOnlyHint: true },
    // One tool a client may run as a task, so the fixture's tasks/* answers are more than refusals.
    taskSupport: 'optional',
  },
  async apply({ path }, ctx) {
    await using directory = await ctx.allowedPaths.openDirectory(path, { signal: ctx.signal });
    const entries = [];
    for await (const entry of directory.entries({ signal: ctx.signal }))
      entries.push(`${entry.name}: ${entry.kind}`);
    return ToolResult.success(entries.sort().join('\n'));
  },
});

const writeText = defineTool({
  definition: {
    name: 'write_text',
    title: 'Write text',
    description: 'Creates or replaces a file with the text given.',
    input: z.object({ path: pathArg('The file.'), text: requiredString('What to write.') }),
    annotations: { readOnlyHint: false, destructiveHint: true },
  },
  async apply({ path, text }, ctx) {
    const written = await ctx.allowedPaths.writeFile(path, text, { signal: ctx.signal });
    return ToolResult.success(written.created ? 'created' : 'replaced');
  },
});

const makeFolder = defineTool({
  definition: {
    name: 'make_folder',
    title: 'Make folder',
    description: "Creates a folder and its parents (a path, not a handle: like adopt_repo's workspace).",
    input: z.object({ path: pathArg('The folder.') }),
    annotations: { readOnlyHint: false },
  },
  async apply({ path }, ctx) {
    const real = await ctx.allowedPaths.resolve(path, { signal: ctx.signal });
    await mkdir(real, { recursive: true });
    return ToolResult.success(`made ${ctx.allowedPaths.display(real)}`);
  },
});

// A prompt whose arguments complete: mcp-common's own proof that prompts and completions reach the wire.
const readFilePrompt = definePrompt({
  definition: {
    name: 'read-a-file',
    title: 'Read a file',
    description: 'Asks for what one file says.',
    arguments: [
      {
        name: 'path',
        description: 'The file, relative to the first allowed directory.',
        required: true,
        complete: completePath({ kind: 'file' }),
      },
      { name: 'tone', description: 'How to answer.', complete: completeFrom(['brief', 'detailed']) },
    ],
  },
  async render({ path, tone }) {
    return [
      {
        role: 'user',
        text: `Call read_text with path '${path}' and tell me what it says (${tone ?? 'brief'}).`,
      },
    ];
  },
});

await runServer({
  name: 'groundwork-files-fixture',
  version: '0.0.1',
  tools: [readText, listEntries, writeText, makeFolder],
  defaultPort: 3198,
  instructions: 'A fixture for testing path confinement.',
  prompts: [readFilePrompt],
  skillsDir: new URL('../skills/', import.meta.url),
});
