// The one load generator used for every HTTP contender: raw JSON-RPC POSTs over keep-alive
// connections (undici), reading answers whether they come as JSON or as an SSE stream.
import { Pool } from 'undici';

const PROTOCOL_VERSION = '2025-06-18';
/** MCP 2026-07-28: no initialize; each request carries `_meta` and the Mcp-* headers that mirror it. */
export const MODERN = '2026-07-28';

export class McpHttpClient {
  private readonly pool: Pool;
  private readonly path: string;
  private nextId = 1;

  constructor(
    url: string,
    connections: number,
    private readonly revision: typeof PROTOCOL_VERSION | typeof MODERN = PROTOCOL_VERSION,
  ) {
    const parsed = new URL(url);
    this.pool = new Pool(parsed.origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
    this.path = parsed.pathname;
  }

  /** Opens a session (or, against a stateless server, just says hello); the session id, if any. */
  async initialize(): Promise<string | undefined> {
    if (this.revision === MODERN) return undefined;
    const { sessionId } = await this.post(undefined, {
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'groundwork-bench', version: '0.0.0' },
      },
    });
    await this.post(sessionId, { jsonrpc: '2.0', method: 'notifications/initialized' });
    return sessionId;
  }

  async callTool(sessionId: string | undefined, name: string, args: Record<string, unknown>): Promise<void> {
    const modern = this.revision === MODERN;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const { body } = await this.post(
      sessionId,
      {
        jsonrpc: '2.0',
        id: this.nextId++,
        method: 'tools/call',
        params: { name, arguments: args, ...(modern ? { _meta: meta } : {}) },
      },
      modern ? { 'mcp-method': 'tools/call', 'mcp-name': name } : {},
    );
    const answer = body as { result?: { isError?: boolean } } | undefined;
    if (answer?.result === undefined || answer.result.isError)
      throw new Error(`call failed: ${JSON.stringify(body)}`);
  }

  async deleteSession(sessionId: string): Promise<void> {
    const response = await this.pool.request({
      path: this.path,
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION },
    });
    await response.body.dump();
    if (response.statusCode >= 300) throw new Error(`DELETE answered ${response.statusCode}`);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async post(
    sessionId: string | undefined,
    message: object,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ sessionId?: string; body: unknown }> {
    const response = await this.pool.request({
      path: this.path,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': this.revision,
        ...extraHeaders,
        ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
      },
      body: JSON.stringify(message),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`POST answered ${response.statusCode}: ${text}`);
    const header = response.headers['mcp-session-id'];
    const id = typeof header === 'string' ? header : sessionId;
    return { ...(id === undefined ? {} : { sessionId: id }), body: parseAnswer(text) };
  }
}

function parseAnswer(text: string): unknown {
  if (text === '') return undefined;
  if (!text.startsWith('event:') && !text.startsWith('data:') && !text.startsWith('id:'))
    return JSON.parse(text);
  // An SSE answer: the response is the last data line.
  const data = text.split('\n').filter((line) => line.startsWith('data: '));
  const last = data[data.length - 1];
  return last === undefined ? undefined : JSON.parse(last.slice(6));
}

/** Keeps `concurrency` calls in flight for `durationMs`; completed calls per second. */
export async function measureThroughput(
  call: () => Promise<void>,
  concurrency: number,
  durationMs: number,
): Promise<number> {
  const end = performance.now() + durationMs;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      await call();
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((performance.now() - started) / 1000);
}
