// Byte-level HTTP for the checks the SDK client hides: status codes, headers, forged Host/Origin, raw bodies.
// node:http rather than fetch, because fetch will not send a Host header of our choosing.
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Resolve once the headers arrive and abort the response (for endless SSE streams). */
  headersOnly?: boolean;
  signal?: AbortSignal;
}

const PROTOCOL_VERSION = '2025-06-18';

export function rawRequest(url: string, options: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        // A connection of its own per request: a pooled keep-alive socket that the server closes for idleness
        // just as the next request is written fails with "socket hang up" (seen under load in CI).
        agent: false,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
      (res) => {
        const response = { status: res.statusCode ?? 0, headers: res.headers };
        if (options.headersOnly) {
          res.destroy();
          resolve({ ...response, body: '' });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ ...response, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A JSON-RPC POST to /mcp with the headers a streamable-HTTP client sends. */
export function postRpc(
  url: string,
  message: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<RawResponse> {
  return rawRequest(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(message),
    ...(signal === undefined ? {} : { signal }),
  });
}

export function initializeRequest(clientName: string, id: number | string = 1) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: clientName, version: '0.0.0' },
    },
  };
}

export const INITIALIZED_NOTIFICATION = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** The JSON-RPC messages of a response body, whether it came as plain JSON or as an SSE stream. */
export function rpcMessagesOf(response: RawResponse): unknown[] {
  const type = String(response.headers['content-type'] ?? '');
  if (type.includes('text/event-stream')) {
    return response.body
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)) as unknown);
  }
  const parsed = JSON.parse(response.body) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** Opens a streamable-HTTP session with raw requests; returns its id. */
export async function openSession(url: string, clientName: string): Promise<string> {
  const response = await postRpc(url, initializeRequest(clientName));
  const id = response.headers['mcp-session-id'];
  if (response.status !== 200 || typeof id !== 'string') {
    throw new Error(`initialize answered ${response.status} without a session id: ${response.body}`);
  }
  const initialized = await postRpc(url, INITIALIZED_NOTIFICATION, sessionHeaders(id));
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return id;
}

export function sessionHeaders(sessionId: string): Record<string, string> {
  return { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION };
}

export async function deleteSession(url: string, sessionId: string): Promise<RawResponse> {
  return rawRequest(url, { method: 'DELETE', headers: sessionHeaders(sessionId) });
}

/**
 * Declares a body of `declaredBytes` but sends only its first bytes, then waits for the answer: a server
 * that refuses the size answers without reading the rest, and the client never races its own upload.
 */
export function postOversized(url: string, declaredBytes: number): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': String(declaredBytes),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    req.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"padding":"${'x'.repeat(64 * 1024)}`);
  });
}
