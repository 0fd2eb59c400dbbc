// MCP 2026-07-28 on the raw wire, where the SDK clients and the conformance suite do not look: over stdio
// (the suite tests HTTP only) every request stands alone with its `_meta`, errors carry the request's id,
// and a 2025 client on the same server still opens with initialize; over streamable HTTP a 2026-07-28
// request needs no session and opens none, while clients of each 2025-era revision still negotiate theirs.
import { expect, it } from 'vitest';
import { baseArgs, type TransportContractSpec } from './contractSpec.js';
import { initializeRequest, postRpc } from './rawHttp.js';
import { startHttpServer } from './serverProcess.js';
import { RawStdioServer } from './stdioChecks.js';

const REVISION = '2026-07-28';
const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

function meta(version = REVISION) {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'modern-checks', version: '0.0.0' },
  };
}

function request(id: number, method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta() } };
}

interface Reply {
  id: unknown;
  result?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

export function describeModernRevision(spec: TransportContractSpec): void {
  it('over stdio: answers 2026-07-28 requests with no initialize, and a 2025 client on the same wire', async () => {
    const server = new RawStdioServer(spec);
    try {
      const exchange = async (message: unknown): Promise<Reply> => {
        const before = server.lines().length;
        server.send(message);
        const [answer] = await server.linesAfter(before, 1);
        return answer as Reply;
      };
      const discover = await exchange(request(1, 'server/discover'));
      expect(discover.result?.supportedVersions).toEqual(
        expect.arrayContaining([REVISION, ...LEGACY_REVISIONS]),
      );
      expect(discover.result?.capabilities).toHaveProperty('tools');
      expect(discover.result?._meta?.['io.modelcontextprotocol/serverInfo']).toMatchObject({
        name: spec.serverName,
      });

      const list = await exchange(request(2, 'tools/list'));
      expect(((list.result?.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name)).toContain(
        spec.sampleCall.name,
      );
      expect(list.result).toMatchObject({ resultType: 'complete', cacheScope: expect.any(String) });
      expect(list.result?.ttlMs).toBeGreaterThanOrEqual(0);

      const call = await exchange(request(3, 'tools/call', { ...spec.sampleCall }));
      expect(call.result?.isError ?? false).toBe(false);
      expect(call.result?.resultType).toBe('complete');

      const noMeta = await exchange({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} });
      // Not a 2026-07-28 request (no _meta version): the 2025 server answers it as before, or refuses it
      // before initialize; either way the answer carries the request's id.
      expect(noMeta.id).toBe(4);

      const noCapabilities = await exchange({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION } },
      });
      expect(noCapabilities).toMatchObject({ id: 5, error: { code: -32602 } });

      const future = await exchange({
        jsonrpc: '2.0',
        id: 6,
        method: 'tools/list',
        params: { _meta: meta('2099-01-01') },
      });
      expect(future).toMatchObject({ id: 6, error: { code: -32022, data: { requested: '2099-01-01' } } });
      expect(future.error?.data?.supported).toContain(REVISION);

      const missing = await exchange(request(7, 'resources/read', { uri: 'groundwork://nowhere' }));
      expect(missing).toMatchObject({
        id: 7,
        error: { code: -32602, data: { uri: 'groundwork://nowhere' } },
      });

      const removed = await exchange(request(8, 'logging/setLevel', { level: 'debug' }));
      expect(removed).toMatchObject({ id: 8, error: { code: -32601 } });

      // A 2025 client on the same process still negotiates its revision.
      const initialized = await exchange(initializeRequest(spec.clientName, 9));
      expect(initialized.result?.protocolVersion).toBe('2025-06-18');
    } finally {
      await server.kill();
    }
  });

  it('over stdio: a client of each 2025-era revision still negotiates it', async () => {
    await Promise.all(
      LEGACY_REVISIONS.map(async (version) => {
        const server = new RawStdioServer(spec);
        try {
          const initialize = initializeRequest(spec.clientName, 1) as { params: Record<string, unknown> };
          initialize.params.protocolVersion = version;
          server.send(initialize);
          const [answer] = await server.linesAfter(0, 1);
          expect((answer as Reply).result?.protocolVersion, version).toBe(version);
        } finally {
          await server.kill();
        }
      }),
    );
  });

  it('over streamable HTTP: a 2026-07-28 request needs no session and opens none; every 2025 revision still negotiates', async () => {
    const server = await startHttpServer(spec.bin, 'streamable-http', baseArgs(spec), {
      env: spec.env ?? {},
    });
    try {
      const headers = {
        'mcp-protocol-version': REVISION,
        'mcp-method': 'tools/call',
        'mcp-name': spec.sampleCall.name,
      };
      const call = await postRpc(server.url, request(1, 'tools/call', { ...spec.sampleCall }), headers);
      expect(call.status).toBe(200);
      expect(call.headers['mcp-session-id']).toBeUndefined();
      expect((JSON.parse(call.body) as Reply).result?.isError ?? false).toBe(false);

      const mismatch = await postRpc(server.url, request(2, 'tools/call', { ...spec.sampleCall }), {
        ...headers,
        'mcp-name': 'another_tool',
      });
      expect(mismatch.status).toBe(400);
      expect(JSON.parse(mismatch.body)).toMatchObject({ id: 2, error: { code: -32020 } });

      const health = await fetch(server.url.replace(/\/mcp$/, '/healthz'));
      expect(await health.json()).toMatchObject({ sessions: 0 });

      for (const version of LEGACY_REVISIONS) {
        const initialize = initializeRequest(spec.clientName, 10) as { params: Record<string, unknown> };
        initialize.params.protocolVersion = version;
        const opened = await postRpc(server.url, initialize);
        expect(opened.status, version).toBe(200);
        expect(opened.headers['mcp-session-id'], version).toEqual(expect.any(String));
        expect(opened.body, version).toContain(`"protocolVersion":"${version}"`);
      }
    } finally {
      await server.stop();
    }
  });

  it('over stateless HTTP: a 2026-07-28 request and a request of each 2025-era revision are all answered', async () => {
    const server = await startHttpServer(spec.bin, 'stateless-http', baseArgs(spec), { env: spec.env ?? {} });
    try {
      const modern = await postRpc(server.url, request(1, 'tools/list'), {
        'mcp-protocol-version': REVISION,
        'mcp-method': 'tools/list',
      });
      expect(modern.status, modern.body).toBe(200);
      expect(JSON.parse(modern.body)).toMatchObject({ id: 1, result: { resultType: 'complete' } });
      for (const version of LEGACY_REVISIONS) {
        const legacy = await postRpc(
          server.url,
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { ...spec.sampleCall } },
          { 'mcp-protocol-version': version },
        );
        expect(legacy.status, version).toBe(200);
        const body = JSON.parse(legacy.body) as Reply;
        expect(body.result?.isError ?? false, `${version}: ${legacy.body.slice(0, 300)}`).toBe(false);
        // Clients before 2025-06-18 cannot read structuredContent: the text block carries the whole JSON.
        const result = body.result as { content: Array<{ text: string }>; structuredContent?: unknown };
        if (version < '2025-06-18' && result.structuredContent !== undefined) {
          expect(JSON.parse(result.content[0]?.text ?? 'null'), version).toEqual(result.structuredContent);
        }
      }
    } finally {
      await server.stop();
    }
  });
}
