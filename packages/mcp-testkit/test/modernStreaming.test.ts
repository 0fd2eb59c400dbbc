// MCP 2026-07-28 over HTTP with a tool that reports progress (the fixture's `wait`): progress goes out as
// SSE on the request's own POST, only when the request carried a progress token, and a client that hangs
// up cancels its call — whichever HTTP mode the server runs in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServerProcess, startHttpServer } from '../src/index.js';
import { postRpc } from '../src/rawHttp.js';
import { cancelledCallCount, logged, startedCallCount } from '../src/serverLog.js';
import { fixtureBin, fixtureDir } from './fixtureServer.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'wait' };

for (const mode of ['streamable-http', 'stateless-http'] as const) {
  describe(`2026-07-28 tool calls over ${mode}`, () => {
    let server: HttpServerProcess;
    beforeAll(async () => {
      server = await startHttpServer(fixtureBin, mode, ['--allowed-dir', fixtureDir], {
        env: { GROUNDWORK_LOG_LEVEL: 'debug' },
      });
    });
    afterAll(async () => {
      await server.stop();
    });

    it('streams progress, then the result with the request id, when the request carries a progress token', async () => {
      const response = await postRpc(
        server.url,
        {
          jsonrpc: '2.0',
          id: 'p1',
          method: 'tools/call',
          params: {
            name: 'wait',
            arguments: { milliseconds: 300 },
            _meta: { ...META, progressToken: 'tok' },
          },
        },
        HEADERS,
      );
      expect(response.headers['content-type']).toContain('text/event-stream');
      const events = response.body
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as { method?: string; id?: unknown; params?: unknown });
      expect(events[0]).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'tok' } });
      expect(events.at(-1)).toMatchObject({ id: 'p1', result: { resultType: 'complete' } });
    });

    it('answers plain JSON without a progress token', async () => {
      const response = await postRpc(
        server.url,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'wait', arguments: { milliseconds: 1 }, _meta: META },
        },
        HEADERS,
      );
      expect(response.headers['content-type']).toContain('application/json');
      expect(JSON.parse(response.body)).toMatchObject({ id: 2, result: { resultType: 'complete' } });
    });

    it('cancels the call when the client hangs up', async () => {
      const startedBefore = startedCallCount(server.stderr(), 'wait');
      const cancelledBefore = cancelledCallCount(server.stderr(), 'wait');
      const hangUp = new AbortController();
      const pending = postRpc(
        server.url,
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'wait', arguments: { milliseconds: 60_000 }, _meta: META },
        },
        HEADERS,
        hangUp.signal,
      ).catch(() => 'aborted');
      await logged(
        () => startedCallCount(server.stderr(), 'wait'),
        startedBefore,
        'the call start',
        server.stderr,
      );
      hangUp.abort();
      expect(await pending).toBe('aborted');
      await logged(
        () => cancelledCallCount(server.stderr(), 'wait'),
        cancelledBefore,
        'the call cancelled',
        server.stderr,
      );
    });
  });
}
