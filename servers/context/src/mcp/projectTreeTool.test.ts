import { fileURLToPath } from 'node:url';
import { AllowedPaths, answerBudget, MemoryBudget, type ToolContext } from '@groundwork/mcp-common';
import { describe, expect, it } from 'vitest';
import { projectTreeTool } from './projectTreeTool.js';

const fixtures = fileURLToPath(new URL('../../test/fixtures', import.meta.url));

async function projectTree(args: Record<string, unknown>): Promise<unknown> {
  const signal = new AbortController().signal;
  const quiet = () => undefined;
  const ctx: ToolContext = {
    signal,
    progress: quiet,
    log: { debug: quiet, info: quiet, warning: quiet, error: quiet },
    allowedPaths: await AllowedPaths.under(fixtures),
    answer: answerBudget(),
    maxResultBytes: 4 * 1024 * 1024,
    memory: new MemoryBudget(64 * 1024 * 1024).forCall(signal),
  };
  const result = await projectTreeTool.apply(projectTreeTool.definition.input.parse(args), ctx);
  if (result.kind !== 'success') throw new Error(`project_tree failed: ${JSON.stringify(result)}`);
  return result.value;
}

describe('project_tree answer', () => {
  // The tool registry sends the answer as its output schema parses it (fields in the schema's order) and
  // measures that text again; built in the same order, it is the text fitList measured, recognised without a
  // second token count (a cold 1,000-file answer counted twice spent 30–60 ms on the second).
  it.each([
    ['files', { path: 'ts-app', mode: 'files' }],
    ['files, paged', { path: 'ts-app', mode: 'files', max_files: 1 }],
    ['summary', { path: 'ts-app', mode: 'summary' }],
  ])('has its fields in the output schema order (%s)', async (_name, args) => {
    const answer = await projectTree(args);
    const sent = projectTreeTool.definition.output!.parse(answer);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(sent));
  });
});
