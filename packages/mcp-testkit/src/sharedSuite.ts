// The checks every transport must pass alike, through the official SDK client (whose schema validation is
// the real signal) plus a raw read of initialize.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultBudgetProblem } from './answerSize.js';
import {
  type Connection,
  nextSlowCall,
  type TransportContractSpec,
  type TransportHarness,
} from './contractSpec.js';
import { nullPaths, snakeCaseKeys } from './jsonChecks.js';
import { describeMalformedRequests } from './malformedRequestChecks.js';
import { describePrimitives } from './primitivesChecks.js';
import { portabilityProblems, strictSchemaProblems } from './schemaPortability.js';
import { cancelledCallCount, logged, startedCallCount } from './serverLog.js';
import { TEST_HANG_GUARD_MS } from './serverProcess.js';
import { checkTextBlock } from './stdioSession.js';
import { describeTaskChecks } from './taskChecks.js';

export function describeSharedSuite(spec: TransportContractSpec, harness: TransportHarness): void {
  let connection: Connection;
  beforeAll(async () => {
    connection = await harness.connect();
  }, TEST_HANG_GUARD_MS);
  afterAll(async () => {
    await connection?.close();
  });

  it('answers initialize with camelCase keys and no explicit null', async () => {
    const message = (await harness.rawInitialize()) as { result?: Record<string, unknown> };
    expect(message.result, JSON.stringify(message)).toBeDefined();
    expect(Object.keys(message.result ?? {})).toEqual(
      expect.arrayContaining(['protocolVersion', 'capabilities', 'serverInfo']),
    );
    expect(snakeCaseKeys(message), 'snake_case keys in the initialize response').toEqual([]);
    expect(nullPaths(message), 'explicit nulls in the initialize response').toEqual([]);
  });

  it('reports its name and offers tools to the SDK client', () => {
    expect(connection.client.getServerVersion()?.name).toBe(spec.serverName);
    expect(connection.client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists tools with object JSON Schemas and descriptions of every parameter', async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.map((tool) => tool.name)).toContain(spec.sampleCall.name);
    for (const tool of tools) {
      expect(tool.description?.trim(), `description of ${tool.name}`).toBeTruthy();
      expect(tool.inputSchema.type, `inputSchema of ${tool.name}`).toBe('object');
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        const description = (property as { description?: unknown }).description;
        expect(
          typeof description === 'string' && description.trim() !== '',
          `description of ${tool.name}.${name}`,
        ).toBe(true);
      }
      if (tool.outputSchema !== undefined)
        expect(tool.outputSchema.type, `outputSchema of ${tool.name}`).toBe('object');
      expect(nullPaths(tool), `explicit nulls in the listing of ${tool.name}`).toEqual([]);
    }
  });

  it('lists schemas strict clients accept: one type per field, string lists as arrays', async () => {
    const { tools } = await connection.client.listTools();
    const problems = tools.flatMap((tool) => [
      ...portabilityProblems(tool.inputSchema, `${tool.name}.input`),
      ...strictSchemaProblems(tool.inputSchema, `${tool.name}.input`),
      ...(tool.outputSchema === undefined
        ? []
        : [
            ...portabilityProblems(tool.outputSchema, `${tool.name}.output`),
            ...strictSchemaProblems(tool.outputSchema, `${tool.name}.output`),
          ]),
    ]);
    expect(problems).toEqual([]);
  });

  it('bounds every integer argument: no count or index may be negative', async () => {
    const { tools } = await connection.client.listTools();
    const unbounded = tools.flatMap((tool) =>
      Object.entries(tool.inputSchema.properties ?? {}).flatMap(([name, property]) => {
        const { type, minimum } = property as { type?: unknown; minimum?: unknown };
        const bounded = typeof minimum === 'number' && minimum >= 0;
        return (type === 'integer' || type === 'number') && !bounded ? [`${tool.name}.${name}`] : [];
      }),
    );
    expect(unbounded, 'integer arguments without a non-negative minimum').toEqual([]);
  });

  it('answers the sample call with a result the SDK client accepts, its text block the same JSON', async () => {
    const { tools } = await connection.client.listTools();
    const tool = tools.find((candidate) => candidate.name === spec.sampleCall.name);
    const result = await connection.client.callTool(spec.sampleCall);
    const text = (result.content as Array<{ type: string; text?: string }>).find(
      (block) => block.type === 'text',
    );
    expect(result.isError, text?.text).toBeFalsy();
    expect(text?.text?.length ?? 0).toBeGreaterThan(0);
    if (tool?.outputSchema === undefined) return;
    expect(result.structuredContent).toBeTypeOf('object');
    // A client that reads only `content` must see what a structured client sees.
    expect(JSON.parse(text?.text ?? 'null')).toEqual(result.structuredContent);
    expect(nullPaths(result.structuredContent), 'explicit nulls in structuredContent').toEqual([]);
  });

  it.skipIf(spec.everyToolCall === undefined)(
    'answers a call of every tool with a text block that is its structuredContent as JSON, within the default answer',
    async () => {
      const { tools } = await connection.client.listTools();
      const calls = spec.everyToolCall ?? [];
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        [...new Set(calls.map((call) => call.name))].sort(),
      );
      for (const call of calls) {
        const result = await connection.client.callTool(call);
        const text = (result.content as Array<{ type: string; text?: string }>)
          .flatMap((block) => (block.type === 'text' && block.text !== undefined ? [block.text] : []))
          .join('\n');
        expect(result.isError, `${call.name}: ${text.slice(0, 300)}`).toBeFalsy();
        const structured = result.structuredContent as Record<string, unknown> | undefined;
        if (tools.find((tool) => tool.name === call.name)?.outputSchema !== undefined) {
          expect(structured, call.name).toBeTypeOf('object');
        }
        if (structured !== undefined) checkTextBlock(call.name, text, structured);
        expect(await defaultBudgetProblem(text), call.name).toBeUndefined();
      }
    },
    TEST_HANG_GUARD_MS,
  );

  it('reports an unknown tool by name', async () => {
    const outcome = await connection.client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      (result) => errorText(result),
      (error: Error) => error.message,
    );
    expect(outcome).toContain('no_such_tool');
  });

  it('reports a missing required argument by name', async () => {
    const { tools } = await connection.client.listTools();
    const required = tools.find((tool) => tool.name === spec.sampleCall.name)?.inputSchema.required ?? [];
    const result = await connection.client.callTool({ name: spec.sampleCall.name, arguments: {} });
    if (required.length === 0) {
      expect(result.isError, 'the sample tool has no required argument, so {} may succeed').toBeFalsy();
      return;
    }
    expect(result.isError).toBe(true);
    const text = errorText(result);
    expect(
      required.some((name) => text.includes(`'${name}'`)),
      text,
    ).toBe(true);
  });

  const [firstArgument] = Object.keys(spec.sampleCall.arguments);
  it.skipIf(firstArgument === undefined)('reports an ill-typed argument by name', async () => {
    const name = firstArgument as string;
    const result = await connection.client.callTool({
      name: spec.sampleCall.name,
      arguments: { ...spec.sampleCall.arguments, [name]: { not: 'what it expects' } },
    });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toContain(`'${name}'`);
  });

  it('offers MCP_USAGE.md as a readable resource', async () => {
    const { resources } = await connection.client.listResources();
    const usage = resources.find((resource) => resource.name === 'MCP_USAGE.md');
    expect(usage, 'a resource named MCP_USAGE.md (pass usageFile to runServer)').toBeDefined();
    const { contents } = await connection.client.readResource({ uri: usage?.uri ?? '' });
    const text = (contents[0] as { text?: string } | undefined)?.text ?? '';
    expect(text).toContain(spec.sampleCall.name);
  });

  it('answers resources/templates/list, since it declares resources', async () => {
    await expect(connection.client.listResourceTemplates()).resolves.toMatchObject({
      resourceTemplates: expect.any(Array),
    });
  });

  if (harness.transport === 'stateless-http') {
    it('keeps no per-client log level: logging/setLevel is not offered, and ping answers', async () => {
      expect(connection.client.getServerCapabilities()?.logging).toBeUndefined();
      await expect(connection.client.setLoggingLevel('warning')).rejects.toMatchObject({ code: -32601 });
      await expect(connection.client.ping()).resolves.toBeDefined();
    });
  } else {
    it('accepts a logging level and answers ping', async () => {
      await expect(connection.client.setLoggingLevel('warning')).resolves.toBeDefined();
      await expect(connection.client.ping()).resolves.toBeDefined();
    });
  }

  it.skipIf(spec.slowCall === undefined)('stops a cancelled call: ctx.signal reaches the tool', async () => {
    const slowCall = nextSlowCall(spec);
    if (slowCall === undefined) return; // narrows the type; skipped above
    const cancelledBefore = cancelledCallCount(connection.stderr(), slowCall.name);
    const startedBefore = startedCallCount(connection.stderr(), slowCall.name);
    const running = harness.startCancellable(connection, slowCall);
    await logged(
      () => startedCallCount(connection.stderr(), slowCall.name),
      startedBefore,
      'the slow call starting',
      connection.stderr,
    );
    running.cancel();
    await running.settled;
    // The server goes on serving, and its log shows the tool itself stopped.
    const next = await connection.client.callTool(spec.sampleCall);
    expect(next.isError, errorText(next)).toBeFalsy();
    await logged(
      () => cancelledCallCount(connection.stderr(), slowCall.name),
      cancelledBefore,
      `"tool call cancelled" for ${slowCall.name}`,
      connection.stderr,
    );
  });

  describe('malformed requests', () => describeMalformedRequests(spec, harness));
  describe('prompts, completions and skills', () => describePrimitives(spec, harness));
  describe('tasks', () => describeTaskChecks(spec, harness, () => connection));
}

/** The text blocks of a call result (the SDK types it loosely, so it is read structurally). */
function errorText(result: Record<string, unknown>): string {
  const blocks = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return blocks.map((block) => block.text ?? '').join('\n');
}
