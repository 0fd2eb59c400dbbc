import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { maxTokensArgument } from '../answers/answerBudget.js';
import { CancelledError, DomainError } from '../domainError.js';
import { AllowedPaths } from '../files/allowedPaths.js';
import { MemoryBudget } from '../limits/memoryBudget.js';
import { defineTool, type McpTool, type ToolContext } from './tool.js';
import { requiredString, stringList } from './toolArguments.js';
import { ToolError } from './toolError.js';
import { type CallContext, ToolRegistry, UnknownToolError } from './toolRegistry.js';
import { ToolResult } from './toolResult.js';

const GITHUB_TOKEN = `ghp_${'A1b2C3d4E5'.repeat(4)}`;

/** A registry whose log lines are kept for reading. */
function registryOf(tools: McpTool[], textBlock: 'json' | 'summary' = 'json') {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return {
    registry: new ToolRegistry(tools, pino({ level: 'debug' }, sink), textBlock),
    log: () => lines.join(''),
  };
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
});

function toolThat(apply: McpTool['apply'], output?: z.ZodObject): McpTool {
  return defineTool({
    definition: {
      name: 'probe',
      title: 'Probe',
      description: 'A tool for testing the registry.',
      input: z.object({ query: requiredString('What to look for.') }),
      ...(output === undefined ? {} : { output }),
      annotations: { readOnlyHint: true },
    },
    apply,
  });
}

describe('ToolRegistry.call', () => {
  it('returns a structured result, and the same JSON as text for clients without structured output', async () => {
    const { registry } = registryOf([
      toolThat(async (args) => ToolResult.success({ found: args.query }), z.object({ found: z.string() })),
    ]);
    const outcome = await registry.call('probe', { query: 'x' }, ctx);
    expect(outcome).toEqual({
      content: [{ type: 'text', text: '{"found":"x"}' }],
      structuredContent: { found: 'x' },
    });
  });

  it('sends the whole answer as compact JSON in the text block, to clients that read structured output too', async () => {
    const rows = Array.from({ length: 500 }, (_, index) => ({ id: index, name: `row ${index}` }));
    const { registry } = registryOf([
      toolThat(
        async () => ToolResult.success({ passed: true, rows }),
        z.object({ passed: z.boolean(), rows: z.array(z.object({ id: z.number(), name: z.string() })) }),
      ),
    ]);
    for (const structuredOutput of [true, false]) {
      const outcome = await registry.call('probe', { query: 'x' }, ctx, { structuredOutput });
      expect(outcome.structuredContent).toEqual({ passed: true, rows });
      expect(outcome.content[0]?.text).toBe(JSON.stringify({ passed: true, rows }));
    }
  });

  it('sends a short summary instead when the operator chose --text-block summary, to structured clients only', async () => {
    const rows = Array.from({ length: 500 }, (_, index) => ({ id: index, name: `row ${index}` }));
    const { registry } = registryOf(
      [
        toolThat(
          async () => ToolResult.success({ passed: true, rows }),
          z.object({ passed: z.boolean(), rows: z.array(z.object({ id: z.number(), name: z.string() })) }),
        ),
      ],
      'summary',
    );
    const outcome = await registry.call('probe', { query: 'x' }, ctx, { structuredOutput: true });
    expect(outcome.structuredContent).toEqual({ passed: true, rows });
    const text = outcome.content[0]?.text ?? '';
    expect(text).toContain('passed: true; rows: 500 items');
    expect(text.length).toBeLessThan(1100);
    const old = await registry.call('probe', { query: 'x' }, ctx, { structuredOutput: false });
    expect(JSON.parse(old.content[0]?.text ?? '')).toEqual({ passed: true, rows });
  });

  it('keeps the code and message of a DomainError a core threw, masked, with no translation', async () => {
    const { registry } = registryOf([
      toolThat(async () => {
        throw new DomainError('COLUMN_NOT_FOUND', `column 'emial' does not exist; token ${GITHUB_TOKEN}`);
      }),
    ]);
    const outcome = await registry.call('probe', { query: 'x' }, ctx);
    expect(outcome).toEqual({
      content: [{ type: 'text', text: "column 'emial' does not exist; token ***" }],
      isError: true,
    });
    const cancelled = registryOf([
      toolThat(async () => {
        throw new CancelledError();
      }),
    ]);
    expect((await cancelled.registry.call('probe', { query: 'x' }, ctx)).content[0]?.text).toBe(
      'The request was cancelled.',
    );
  });

  it('cuts an error text below the 11,000 characters Claude Code keeps of one', async () => {
    const { registry } = registryOf([toolThat(async () => ToolResult.error(`bad ${'word '.repeat(5000)}`))]);
    const text = (await registry.call('probe', { query: 'x' }, ctx)).content[0]?.text ?? '';
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text).toMatch(/^bad word .*… \[cut: 25004 characters\]$/s);
  });

  it("gives the tool the budget its caller asked with 'max_tokens', and the default otherwise", async () => {
    const seen: ToolContext['answer'][] = [];
    const paged = defineTool({
      definition: {
        name: 'paged',
        title: 'Paged',
        description: 'A list tool.',
        input: z.object({ max_tokens: maxTokensArgument }),
        annotations: { readOnlyHint: true },
      },
      apply: async (_args, toolCtx) => {
        seen.push(toolCtx.answer);
        return ToolResult.success('ok');
      },
    });
    const { registry } = registryOf([
      paged,
      toolThat(async (_args, toolCtx) => {
        seen.push(toolCtx.answer);
        return ToolResult.success('ok');
      }),
    ]);
    await registry.call('paged', {}, ctx);
    await registry.call('paged', { max_tokens: 40_000 }, ctx);
    await registry.call('probe', { query: 'x' }, ctx);
    expect(seen).toEqual([
      { maxTokens: 20_000, maxChars: 50_000 },
      { maxTokens: 40_000, maxChars: 100_000 },
      { maxTokens: 20_000, maxChars: 50_000 },
    ]);
    const listed = registry.listing;
    expect(listed.find((tool) => tool.name === 'paged')?._meta).toEqual({
      'anthropic/maxResultSizeChars': 250_000,
    });
    expect(listed.find((tool) => tool.name === 'probe')).not.toHaveProperty('_meta');
  });

  it('replaces an answer over its budget by a bounded error saying truncated and how to ask for less', async () => {
    const rows = Array.from({ length: 3000 }, (_, index) => ({ id: index, name: `row ${index}` }));
    const listed = defineTool({
      definition: {
        name: 'listed',
        title: 'Listed',
        description: 'A list tool that does not fit its answer.',
        input: z.object({ limit: z.number().optional(), max_tokens: maxTokensArgument }),
        output: z.object({ rows: z.array(z.object({ id: z.number(), name: z.string() })) }),
        annotations: { readOnlyHint: true },
      },
      apply: async () => ToolResult.success({ rows }),
    });
    const { registry } = registryOf([listed]);
    const refused = await registry.call('listed', {}, ctx, { structuredOutput: true });
    expect(refused.isError).toBe(true);
    const answer = JSON.parse(refused.content[0]?.text ?? '');
    expect(answer).toMatchObject({ truncated: true, max_tokens: 20_000, max_chars: 50_000 });
    expect(answer.answer_chars).toBe(JSON.stringify({ rows }).length);
    expect(answer.message).toContain("Ask for less: narrow the call with 'limit', or raise 'max_tokens'.");
    const asked = await registry.call('listed', { max_tokens: 100_000 }, ctx, { structuredOutput: true });
    expect(asked.structuredContent).toEqual({ rows });
  });

  it('reads the budget from the argument a tool names, and lists the characters its largest value allows', async () => {
    const seen: ToolContext['answer'][] = [];
    const bundle = defineTool({
      definition: {
        name: 'bundle',
        title: 'Bundle',
        description: 'A tool whose budget is a required argument.',
        input: z.object({ budget_tokens: z.number().int().min(200).max(300_000) }),
        budgetArgument: 'budget_tokens',
        annotations: { readOnlyHint: true },
      },
      apply: async (_args, toolCtx) => {
        seen.push(toolCtx.answer);
        return ToolResult.success('ok');
      },
    });
    const { registry } = registryOf([bundle]);
    await registry.call('bundle', { budget_tokens: 400 }, ctx);
    expect(seen).toEqual([{ maxTokens: 400, maxChars: 1000 }]);
    expect(registry.listing[0]?._meta).toEqual({ 'anthropic/maxResultSizeChars': 500_000 });
  });

  it('replaces a result over the reply limit by a bounded error saying truncated and how to ask for less', async () => {
    const { registry } = registryOf([toolThat(async () => ToolResult.success('x'.repeat(5000)))]);
    const outcome = await registry.call('probe', { query: 'x' }, { ...ctx, maxResultBytes: 4096 });
    expect(outcome.isError).toBe(true);
    expect(outcome.structuredContent).toBeUndefined();
    const answer = JSON.parse(outcome.content[0]?.text ?? '');
    expect(answer).toMatchObject({ truncated: true, max_result_bytes: 4096 });
    expect(answer.result_bytes).toBeGreaterThan(5000);
    expect(answer.message).toContain('GROUNDWORK_MAX_RESULT_BYTES');
    expect(JSON.stringify(outcome).length).toBeLessThan(4096);
  });

  it('measures the reply limit on the exact bytes of the outcome: quotes, backslashes, non-ASCII, lone surrogates', async () => {
    // Long enough for a summary, whose cut of a field can split a surrogate pair.
    const tricky = `say "hi" \\ back\\slash é ✓ 😀 lone \ud800 and \udc00, tab\t, nul\u0000 ${'😀'.repeat(60)}`;
    const value = {
      note: tricky,
      rows: Array.from({ length: 40 }, (_, id) => ({ id, name: `${tricky}${id}` })),
    };
    const output = z.object({
      note: z.string(),
      rows: z.array(z.object({ id: z.number(), name: z.string() })),
    });
    for (const textBlock of ['json', 'summary'] as const) {
      const { registry } = registryOf([toolThat(async () => ToolResult.success(value), output)], textBlock);
      const options = { structuredOutput: true };
      const whole = await registry.call('probe', { query: 'x' }, ctx, options);
      expect(whole.structuredContent).toEqual(value);
      const exact = Buffer.byteLength(JSON.stringify(whole));
      const atLimit = await registry.call(
        'probe',
        { query: 'x' },
        { ...ctx, maxResultBytes: exact },
        options,
      );
      expect(atLimit).toEqual(whole);
      const over = await registry.call(
        'probe',
        { query: 'x' },
        { ...ctx, maxResultBytes: exact - 1 },
        options,
      );
      expect(over.isError).toBe(true);
      expect(JSON.parse(over.content[0]?.text ?? '').result_bytes).toBe(exact);
    }
  });

  it('checks the page a tool rendered once: the value it returns is not checked again, another value is', async () => {
    let checks = 0;
    const output = z.object({ found: z.string() }).refine(() => ++checks > 0);
    const rendered = { found: 'page' };
    const { registry } = registryOf([
      toolThat(async (args, toolCtx) => {
        toolCtx.answer.render?.(rendered);
        return ToolResult.success(args.query === 'same' ? rendered : { found: args.query });
      }, output),
    ]);
    const same = await registry.call('probe', { query: 'same' }, ctx);
    expect(same.structuredContent).toEqual({ found: 'page' });
    expect(checks).toBe(1);
    checks = 0;
    const other = await registry.call('probe', { query: 'other' }, ctx);
    expect(other.structuredContent).toEqual({ found: 'other' });
    expect(checks).toBe(2);
  });

  it('refuses a value that breaks the output schema with the same error after a page was rendered', async () => {
    const { registry, log } = registryOf([
      toolThat(
        async (_args, toolCtx) => {
          toolCtx.answer.render?.({ found: 'page' });
          return ToolResult.success({ found: 3 });
        },
        z.object({ found: z.string() }),
      ),
    ]);
    const outcome = await registry.call('probe', { query: 'x' }, ctx);
    expect(outcome).toEqual({
      content: [
        {
          type: 'text',
          text: "Tool 'probe' produced a result that does not match its output schema (a server bug).",
        },
      ],
      isError: true,
    });
    expect(log()).toContain('does not match its output schema');
  });

  it('sends a null output field as an absent one', async () => {
    const { registry } = registryOf([
      toolThat(
        async () => ToolResult.success({ found: null, nested: { value: null, kept: 1 } }),
        z.object({
          found: z.string().nullable(),
          nested: z.object({ value: z.string().nullable(), kept: z.number() }),
        }),
      ),
    ]);
    const outcome = await registry.call('probe', { query: 'x' }, ctx, { structuredOutput: true });
    expect(outcome.structuredContent).toEqual({ nested: { kept: 1 } });
  });

  it('leaves out null fields at any depth, in list items too, keeping the order of the others', async () => {
    const item = z.object({ name: z.string(), note: z.string().nullable(), tags: z.array(z.string()) });
    const { registry } = registryOf([
      toolThat(
        async () =>
          ToolResult.success({
            first: 'a',
            items: [
              { name: 'x', note: 'kept', tags: ['t'] },
              { name: 'y', note: null, tags: [] },
            ],
            last: null,
            after: 2,
          }),
        z.object({ first: z.string(), items: z.array(item), last: z.string().nullable(), after: z.number() }),
      ),
    ]);
    const outcome = await registry.call('probe', { query: 'x' }, ctx, { structuredOutput: true });
    const structured = outcome.structuredContent as Record<string, unknown>;
    expect(structured).toEqual({
      first: 'a',
      items: [
        { name: 'x', note: 'kept', tags: ['t'] },
        { name: 'y', tags: [] },
      ],
      after: 2,
    });
    expect(Object.keys(structured)).toEqual(['first', 'items', 'after']);
    expect(Object.keys((structured.items as object[])[1] as object)).toEqual(['name', 'tags']);
  });

  it('returns text alone when the tool has no output schema', async () => {
    const { registry } = registryOf([toolThat(async () => ToolResult.success('plain words'))]);
    expect(await registry.call('probe', { query: 'x' }, ctx)).toEqual({
      content: [{ type: 'text', text: 'plain words' }],
    });
  });

  it('turns a result that does not match the output schema into an error result and logs the mismatch', async () => {
    const { registry, log } = registryOf([
      toolThat(async () => ToolResult.success({ found: 3 }), z.object({ found: z.string() })),
    ]);
    const outcome = await registry.call('probe', { query: 'x' }, ctx);
    expect(outcome.isError).toBe(true);
    expect(outcome.content[0]?.text).toBe(
      "Tool 'probe' produced a result that does not match its output schema (a server bug).",
    );
    expect(outcome.structuredContent).toBeUndefined();
    expect(log()).toContain('does not match its output schema');
  });

  it('answers bad arguments with an error naming them, without running the tool', async () => {
    let ran = false;
    const { registry } = registryOf([
      toolThat(async () => {
        ran = true;
        return ToolResult.success('ran');
      }),
    ]);
    const outcome = await registry.call('probe', { query: 5 }, ctx);
    expect(outcome).toEqual({
      content: [{ type: 'text', text: "Invalid argument 'query': expected string, got integer 5" }],
      isError: true,
    });
    expect(ran).toBe(false);
  });

  it('keeps the message of a ToolError, masked', async () => {
    const { registry } = registryOf([
      toolThat(async () => {
        throw new ToolError(
          'COLUMN_NOT_FOUND',
          "column 'emial' is not in /srv/data/people.csv; columns are: id, email",
        );
      }),
    ]);
    const outcome = await registry.call('probe', { query: 'x' }, ctx);
    expect(outcome.isError).toBe(true);
    expect(outcome.content[0]?.text).toBe("column 'emial' is not in people.csv; columns are: id, email");
  });

  it('keeps the message of an error result, masked', async () => {
    const { registry } = registryOf([toolThat(async () => ToolResult.error(`bad key ${GITHUB_TOKEN}`))]);
    const outcome = await registry.call('probe', { query: 'x' }, ctx);
    expect(outcome).toEqual({ content: [{ type: 'text', text: 'bad key ***' }], isError: true });
  });

  it('masks an unexpected failure for the client and logs it with masked arguments', async () => {
    const { registry, log } = registryOf([
      toolThat(async () => {
        throw new Error(
          'could not open /home/alice/secret/config.yml with token=abc123 via https://bob:hunter2@example.com/x',
        );
      }),
    ]);
    const outcome = await registry.call('probe', { query: `find ${GITHUB_TOKEN}` }, ctx);
    expect(outcome).toEqual({
      content: [
        {
          type: 'text',
          text: "Tool 'probe' failed: could not open config.yml with token=*** via https://***@example.com/x",
        },
      ],
      isError: true,
    });
    expect(log()).toContain('tool failed');
    for (const secret of [GITHUB_TOKEN, 'abc123', 'hunter2']) expect(log()).not.toContain(secret);
  });

  it('reports an aborted call as cancelled', async () => {
    const { registry } = registryOf([
      toolThat(async () => {
        throw new DOMException('The operation was aborted.', 'AbortError');
      }),
    ]);
    const outcome = await registry.call('probe', { query: 'x' }, ctx);
    expect(outcome).toEqual({
      content: [{ type: 'text', text: "Tool 'probe' was cancelled." }],
      isError: true,
    });
  });

  it('throws UnknownToolError naming the tool and the ones it has', async () => {
    const { registry } = registryOf([toolThat(async () => ToolResult.success('x'))]);
    const call = registry.call('nope', {}, ctx);
    await expect(call).rejects.toBeInstanceOf(UnknownToolError);
    await expect(registry.call('nope', {}, ctx)).rejects.toThrow(
      "Unknown tool 'nope'; this server has: probe.",
    );
  });
});

describe('ToolRegistry listing', () => {
  it('lists JSON Schemas without a $schema dialect, the output schema and annotations with the title', () => {
    const { registry } = registryOf([
      toolThat(async () => ToolResult.success({}), z.object({ found: z.string() })),
    ]);
    const [listing] = registry.listing;
    expect(listing?.inputSchema).toMatchObject({ type: 'object', required: ['query'] });
    expect(listing?.inputSchema).not.toHaveProperty('$schema');
    expect(listing?.outputSchema).toMatchObject({
      type: 'object',
      properties: { found: { type: 'string' } },
    });
    expect(listing?.annotations).toEqual({ title: 'Probe', readOnlyHint: true });
  });

  it('gives every field one type: nullable becomes optional, a string list an array', () => {
    const tool = defineTool({
      definition: {
        name: 'portable',
        title: 'Portable',
        description: 'Schemas strict clients accept.',
        input: z.object({ names: stringList('Names.'), maybe: stringList('More names.').optional() }),
        output: z.object({ found: z.string().nullable(), count: z.number().int() }),
        annotations: {},
      },
      async apply() {
        return ToolResult.success({ found: null, count: 0 });
      },
    });
    const [listing] = registryOf([tool]).registry.listing;
    expect(listing?.inputSchema).toEqual({
      type: 'object',
      properties: {
        names: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, description: 'Names.' },
        maybe: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          minItems: 1,
          description: 'More names.',
        },
      },
      required: ['names'],
      additionalProperties: false,
    });
    expect(listing?.outputSchema).toMatchObject({
      properties: { found: { type: 'string' }, count: { type: 'integer' } },
      required: ['count'],
    });
  });

  it('refuses tool names that are not snake_case, and duplicates', () => {
    const named = (name: string) => {
      const tool = toolThat(async () => ToolResult.success('x'));
      return { ...tool, definition: { ...tool.definition, name } };
    };
    expect(() => registryOf([named('findThings')])).toThrow("Tool name 'findThings' must be snake_case");
    expect(() => registryOf([named('find'), named('find')])).toThrow("Two tools are named 'find'");
  });
});
