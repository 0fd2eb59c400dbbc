// A server whose bundle left out gpt-tokenizer's vocabulary file still answers: tokens are counted as UTF-8
// bytes (an upper bound), the registry says so once in the log, and no client sees the file's path. And
// whatever fails while an answer is measured is answered as every tool failure is.
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AllowedPaths } from '../files/allowedPaths.js';
import { MemoryBudget } from '../limits/memoryBudget.js';
import { defineTool } from '../tools/tool.js';
import { type CallContext, ToolRegistry } from '../tools/toolRegistry.js';
import { ToolResult } from '../tools/toolResult.js';
import { pagingArguments, pagingOutput } from './answerBudget.js';
import { answerFits, fitList } from './fitList.js';
import { countTokens, withinTokens } from './tokenCount.js';

const VOCABULARY = 'o200k_base.tiktoken';
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readFileSync = ((file: string, ...rest: unknown[]) => {
    if (String(file).endsWith(VOCABULARY)) {
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${String(file)}'`), {
        code: 'ENOENT',
      });
    }
    return (fs.readFileSync as (...args: unknown[]) => unknown)(file, ...rest);
  }) as typeof fs.readFileSync;
  return { ...fs, readFileSync, default: { ...fs, readFileSync } };
});

// A measurement that throws (set per test), reaching the registry through fitList's answerFits.
const measuring = vi.hoisted(() => ({ failure: undefined as Error | undefined }));
vi.mock('./fitList.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./fitList.js')>();
  return {
    ...real,
    answerFits: (...args: Parameters<typeof real.answerFits>) =>
      measuring.failure === undefined ? real.answerFits(...args) : Promise.reject(measuring.failure),
  };
});

function registryOf(tools: Parameters<typeof defineTool>[0][]) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return {
    registry: new ToolRegistry(tools.map(defineTool), pino({ level: 'debug' }, sink)),
    log: () => lines.join(''),
  };
}

const items = Array.from({ length: 2_000 }, (_, index) => ({ id: index, name: `item number ${index}` }));
const list = {
  definition: {
    name: 'list',
    title: 'List',
    description: 'A long list, fitted to the budget.',
    input: z.object({ ...pagingArguments }),
    output: z.object({ items: z.array(z.object({ id: z.number(), name: z.string() })), ...pagingOutput }),
    annotations: { readOnlyHint: true },
  },
  async apply(_args: unknown, ctx: Parameters<ReturnType<typeof defineTool>['apply']>[1]) {
    const { answer } = await fitList(items, {
      budget: ctx.answer,
      frame: (page, paging) => ({ items: page, ...paging }),
    });
    return ToolResult.success(answer);
  },
};
const text = {
  definition: {
    name: 'text',
    title: 'Text',
    description: 'A 30 KB answer, not fitted.',
    input: z.object({}),
    annotations: { readOnlyHint: true },
  },
  async apply() {
    return ToolResult.success('word '.repeat(6_000));
  },
};

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
});

describe('without the token vocabulary', () => {
  it('counts a text as its UTF-8 bytes, an upper bound', async () => {
    expect(await countTokens('héllo wörld')).toBe(13);
    expect(await withinTokens('x'.repeat(1_000), 1_000)).toBe(true);
    expect(await withinTokens('x'.repeat(1_001), 1_000)).toBe(false);
    expect(await answerFits('word '.repeat(300), { maxTokens: 1_000, maxChars: 2_500 })).toBe(false);
  });

  it('still answers a long list (in pages of at most its budget in bytes), and logs why once', async () => {
    const { registry, log } = registryOf([list]);
    const first = await registry.call('list', {}, ctx, { structuredOutput: true });
    expect(first.isError).toBeUndefined();
    const answer = first.structuredContent as { items: unknown[]; truncated: boolean; total: number };
    expect(answer).toMatchObject({ truncated: true, total: 2_000 });
    expect(answer.items.length).toBeGreaterThan(100);
    expect(Buffer.byteLength(first.content[0]?.text ?? '')).toBeLessThanOrEqual(20_000);
    await registry.call('list', {}, ctx, { structuredOutput: true });
    const said = log()
      .split('\n')
      .filter((line) => line.includes('token vocabulary unreadable'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(VOCABULARY);
  });

  it('refuses an unfitted answer over the budget with the usual message, no path in it', async () => {
    const { registry } = registryOf([text]);
    const outcome = await registry.call('text', {}, ctx);
    expect(outcome.isError).toBe(true);
    const refusal = JSON.parse(outcome.content[0]?.text ?? '{}');
    expect(refusal).toMatchObject({ truncated: true, answer_tokens: 30_000, max_tokens: 20_000 });
    expect(outcome.content[0]?.text).not.toContain(VOCABULARY);
  });
});

describe('a failure while an answer is measured', () => {
  it('is answered as any tool failure is: logged, its paths masked for the client', async () => {
    const { registry, log } = registryOf([text]);
    measuring.failure = new Error(`ENOENT: no such file or directory, open '/opt/server/data/${VOCABULARY}'`);
    try {
      const outcome = await registry.call('text', {}, ctx);
      expect(outcome.isError).toBe(true);
      expect(outcome.content[0]?.text).toMatch(/^Tool 'text' failed: /);
      expect(outcome.content[0]?.text).not.toContain('/opt/server');
      expect(log()).toContain('/opt/server/data/');
    } finally {
      measuring.failure = undefined;
    }
  });
});
