// The registry measures the text a client gets (output-schema order, nulls dropped); fitList measures the same
// text through `ctx.answer.render`, so an answer's tokens are counted once, whatever order a tool built it in.
import { tmpdir } from 'node:os';
import { pino } from 'pino';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AllowedPaths } from '../files/allowedPaths.js';
import { MemoryBudget } from '../limits/memoryBudget.js';
import { defineTool } from '../tools/tool.js';
import { type CallContext, ToolRegistry } from '../tools/toolRegistry.js';
import { ToolResult } from '../tools/toolResult.js';
import { maxTokensArgument, pagingOutput } from './answerBudget.js';
import { fitList } from './fitList.js';
import { countTokens } from './tokenCount.js';

/** Every text the vocabulary counted. */
const counted: string[] = [];
/** How many texts had been counted when the tool returned its answer (the registry measures it after). */
let countedInCall = -1;
vi.mock('./vocabulary.js', async (original) => {
  const actual = await original<typeof import('./vocabulary.js')>();
  return {
    ...actual,
    countWith: (...args: Parameters<typeof actual.countWith>) => {
      counted.push(args[1]);
      return actual.countWith(...args);
    },
  };
});

/** A tool whose schema orders its fields `label, items, paging`; `built` says the order it builds them in. */
function registryOf(items: string[], built: 'schema' | 'reversed') {
  const tool = defineTool({
    definition: {
      name: 'probe',
      title: 'Probe',
      description: 'A list tool for testing how its answer is measured.',
      input: z.object({ max_tokens: maxTokensArgument }),
      output: z.object({
        label: z.string(),
        note: z.string().nullable(),
        items: z.array(z.string()),
        ...pagingOutput,
      }),
      annotations: { readOnlyHint: true },
    },
    apply: async (_args, ctx) => {
      const { answer } = await fitList(items, {
        budget: ctx.answer,
        cursorKey: 'probe',
        frame: (page, paging) =>
          built === 'schema'
            ? { label: 'probe', note: null, items: page, ...paging }
            : { ...paging, items: page, note: null, label: 'probe' },
      });
      countedInCall = counted.length;
      return ToolResult.success(answer);
    },
  });
  return new ToolRegistry([tool], pino({ level: 'silent' }));
}

let ctx: CallContext;
beforeAll(async () => {
  const quiet = () => undefined;
  ctx = {
    signal: new AbortController().signal,
    progress: quiet,
    log: { debug: quiet, info: quiet, warning: quiet, error: quiet },
    allowedPaths: await AllowedPaths.under(tmpdir()),
    maxResultBytes: 4 * 1024 * 1024,
    memory: new MemoryBudget(64 * 1024 * 1024).forCall(new AbortController().signal),
  };
  await countTokens('warm the vocabulary');
});
beforeEach(() => {
  counted.length = 0;
});

// Plain words: about four characters a token, so the characters (2,500 at 1,000 tokens) bind first.
const words = Array.from({ length: 2_000 }, (_, i) => `word${i % 10}`);
// One CJK character is about one token and one character: the tokens bind first.
const ideographs = Array.from({ length: 2_000 }, (_, i) =>
  Array.from({ length: 6 }, (_, j) =>
    String.fromCodePoint(0x4e00 + ((i * 7919 + j * 104_729) % 20_000)),
  ).join(''),
);

describe.each(['schema', 'reversed'] as const)('an answer built in %s order', (built) => {
  it.each([
    ['the characters', words],
    ['the tokens', ideographs],
  ])('where %s bind, counts no text twice, and the answer it sends among them', async (binding, items) => {
    const outcome = await registryOf(items, built).call('probe', { max_tokens: 1_000 }, ctx);
    const text = outcome.content[0]?.text ?? '';
    const answer = JSON.parse(text) as { truncated: boolean; items: string[] };
    expect(outcome.isError).toBeFalsy();
    expect(answer.truncated).toBe(true);
    expect(Object.keys(answer)).toEqual(['label', 'items', 'truncated', 'total', 'next_cursor']);
    expect(counted).toContain(text);
    expect(counted).toHaveLength(countedInCall);
    expect(new Set(counted).size).toBe(counted.length);
    if (binding === 'the characters') expect(counted).toEqual([text]);
    expect(text.length).toBeLessThanOrEqual(2_500);
    expect(await countTokens(text)).toBeLessThanOrEqual(1_000);
  });
});
