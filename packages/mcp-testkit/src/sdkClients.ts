// The official clients as users run them, against the built bin over every transport: the v1 client
// (`@modelcontextprotocol/sdk`, 2025 revisions), the v2 client (`@modelcontextprotocol/client`) both in
// its default 2025 mode and pinned to 2026-07-28 (server/discover and per-request `_meta`, no initialize),
// and the MCP Inspector's CLI (`mcp-inspector --cli`), a separate program driven through its command line.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseArgs, type ContractTransport, type TransportContractSpec } from './contractSpec.js';
import { type HttpServerProcess, startHttpServer } from './serverProcess.js';

const TRANSPORTS: readonly ContractTransport[] = ['stdio', 'streamable-http', 'stateless-http'];

interface AnyClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(call: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listPrompts(): Promise<{ prompts: Array<{ name: string }> }>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<{ messages: unknown[] }>;
  complete(params: {
    ref: { type: 'ref/prompt'; name: string };
    argument: { name: string; value: string };
    context: { arguments: Record<string, string> };
  }): Promise<{ completion: { values: string[] } }>;
  close(): Promise<void>;
}

/** Registers, per transport, one connect-list-call test for each official client flavour. */
export function describeSdkClients(spec: TransportContractSpec): void {
  for (const transport of TRANSPORTS) {
    describe(`over ${transport}`, () => {
      let server: HttpServerProcess | undefined;
      beforeAll(async () => {
        if (transport !== 'stdio') {
          server = await startHttpServer(spec.bin, transport, baseArgs(spec), { env: spec.env ?? {} });
        }
      });
      afterAll(async () => {
        await server?.stop();
      });

      const stdioParams = () => ({
        command: process.execPath,
        args: [spec.bin, ...baseArgs(spec)],
        env: { ...(process.env as Record<string, string>), ...spec.env },
        stderr: 'ignore' as const,
      });
      const url = () => new URL((server as HttpServerProcess).url);

      it('the v1 SDK client (2025-11-25) connects, lists, calls, renders a prompt and completes', async () => {
        const client = new ClientV1({ name: spec.clientName, version: '0.0.0' });
        await client.connect(transport === 'stdio' ? new StdioV1(stdioParams()) : new HttpV1(url()));
        expect(client.getServerVersion()?.name).toBe(spec.serverName);
        await listAndCall(client, spec);
      });

      it('the MCP Inspector CLI lists the tools and calls one', async () => {
        const target =
          transport === 'stdio'
            ? [process.execPath, spec.bin, ...baseArgs(spec)]
            : ['--transport', 'http', '--server-url', (server as HttpServerProcess).url];
        const listed = JSON.parse(await inspector([...target, '--method', 'tools/list'], spec.env)) as {
          tools: Array<{ name: string }>;
        };
        expect(listed.tools.map((tool) => tool.name)).toContain(spec.sampleCall.name);
        const toolArgs = Object.entries(spec.sampleCall.arguments ?? {}).map(
          ([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
        );
        const called = JSON.parse(
          await inspector(
            [
              ...target,
              '--method',
              'tools/call',
              '--tool-name',
              spec.sampleCall.name,
              '--tool-arg',
              ...toolArgs,
            ],
            spec.env,
          ),
        ) as { isError?: boolean; content?: unknown[] };
        expect(called.isError ?? false).toBe(false);
        expect(called.content?.length ?? 0).toBeGreaterThan(0);
      });

      for (const mode of ['legacy', '2026-07-28'] as const) {
        it(`the v2 SDK client (${mode === 'legacy' ? 'default: 2025 initialize' : 'pinned to 2026-07-28'}) connects, lists, calls, renders a prompt and completes`, async () => {
          const client = new ClientV2(
            { name: spec.clientName, version: '0.0.0' },
            mode === 'legacy' ? {} : { versionNegotiation: { mode: { pin: '2026-07-28' } } },
          );
          await client.connect(transport === 'stdio' ? new StdioV2(stdioParams()) : new HttpV2(url()));
          expect(client.getServerVersion()?.name).toBe(spec.serverName);
          if (mode === '2026-07-28') {
            expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
          } else {
            expect(client.getNegotiatedProtocolVersion()).not.toBe('2026-07-28');
          }
          await listAndCall(client, spec);
        });
      }
    });
  }
}

async function listAndCall(client: AnyClient, spec: TransportContractSpec): Promise<void> {
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain(spec.sampleCall.name);
    const result = (await client.callTool(spec.sampleCall)) as { isError?: boolean };
    expect(result.isError ?? false).toBe(false);
    // Prompts and completions through the same client (the contract's shared suite checks them all).
    const { prompts } = await client.listPrompts();
    for (const prompt of prompts.slice(0, 1)) {
      const rendered = await client.getPrompt({
        name: prompt.name,
        arguments: spec.promptArguments?.[prompt.name] ?? {},
      });
      expect(rendered.messages.length).toBeGreaterThan(0);
    }
    for (const sample of (spec.completionSamples ?? []).slice(0, 1)) {
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: sample.prompt },
        argument: { name: sample.argument, value: sample.value },
        context: { arguments: sample.arguments ?? {} },
      });
      expect(completion.values).toContain(sample.offers);
    }
  } finally {
    await client.close();
  }
}

const inspectorBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);

/** Runs `mcp-inspector --cli …` and resolves with what it printed (its answer as JSON); its catalog is a temp file. */
function inspector(args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const catalog = path.join(mkdtempSync(path.join(tmpdir(), 'inspector-')), 'mcp.json');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [inspectorBin, '--cli', ...args],
      { env: { ...process.env, ...env, MCP_CATALOG_PATH: catalog }, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}
