// The official SDK clients as users run them, against the built bin over every transport: the v1 client
// (`@modelcontextprotocol/sdk`, 2025 revisions), and the v2 client (`@modelcontextprotocol/client`) both in
// its default 2025 mode and pinned to 2026-07-28 (server/discover and per-request `_meta`, no initialize).
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

      it('the v1 SDK client (2025-11-25) connects, lists and calls', async () => {
        const client = new ClientV1({ name: spec.clientName, version: '0.0.0' });
        await client.connect(transport === 'stdio' ? new StdioV1(stdioParams()) : new HttpV1(url()));
        expect(client.getServerVersion()?.name).toBe(spec.serverName);
        await listAndCall(client, spec);
      });

      for (const mode of ['legacy', '2026-07-28'] as const) {
        it(`the v2 SDK client (${mode === 'legacy' ? 'default: 2025 initialize' : 'pinned to 2026-07-28'}) connects, lists and calls`, async () => {
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
  } finally {
    await client.close();
  }
}
