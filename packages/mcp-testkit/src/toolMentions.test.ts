import { defineTool, requiredString, ToolResult } from '@groundwork/mcp-common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolMentionProblems, toolMentions } from './toolMentions.js';

const lookup = defineTool({
  definition: {
    name: 'look_up',
    title: 'Look up',
    description: 'Looks up a name.',
    input: z.object({ path: requiredString('Where.'), depth: z.number().int().max(3).optional() }),
    annotations: { readOnlyHint: true },
  },
  async apply() {
    return ToolResult.success({});
  },
});

describe('toolMentions', () => {
  it('finds "`tool` with `{…}`", also across a line break', () => {
    expect(toolMentions('Call `look_up` with\n   `{"path": P}` then `look_up` with `{}`.')).toEqual([
      { tool: 'look_up', argumentsText: '{"path": P}' },
      { tool: 'look_up', argumentsText: '{}' },
    ]);
  });
});

describe('toolMentionProblems', () => {
  it('accepts real tools with real arguments, placeholders or JSON', () => {
    expect(toolMentionProblems('`look_up` with `{"path": P, "depth": 2}`', [lookup])).toEqual([]);
    expect(toolMentionProblems('`look_up` with `{"path":"a","depth":2}`', [lookup])).toEqual([]);
  });

  it('names an unknown tool, an unknown argument and a value the schema refuses', () => {
    expect(
      toolMentionProblems(
        '`lookup` with `{}`; `look_up` with `{"path": P, "deep": 1}`; `look_up` with `{"path":"a","depth":9}`',
        [lookup],
      ),
    ).toEqual([
      "no tool 'lookup' (the server has look_up)",
      "look_up: no argument 'deep'",
      expect.stringMatching(/^look_up \{"path":"a","depth":9\}: /),
    ]);
  });
});
