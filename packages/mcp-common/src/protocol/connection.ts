// One client's stream of messages (stdio, a streamable-HTTP session, or the stateless HTTP endpoint's one
// shared stream): classifies each request and hands it to the dispatcher, sends its reply unless the client
// cancelled it, and keeps what a legacy session remembers between requests.
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { clientAddressOf } from '../http/statelessTransport.js';
import type { ServerApp } from '../server/serverApp.js';
import { taskStoreOf } from '../tasks/taskCalls.js';
import { sessionLimiter } from '../tools/toolCalls.js';
import { type Caller, Dispatcher, type LegacySession } from './dispatcher.js';
import { classify } from './eras.js';
import type { RpcId } from './rpcError.js';

type RequestInfo = { headers: Record<string, string | string[] | undefined> };

interface ConnectionOptions {
  /**
   * One stream answers every client (stateless HTTP): nothing per client may be kept, so there is no
   * session (no logging/setLevel, no task list, the protocol version read from each request's header).
   */
  stateless: boolean;
}

export class Connection {
  private transport: Transport | undefined;
  private readonly dispatcher: Dispatcher;
  private readonly running = new Map<RpcId, AbortController>();
  private readonly session: LegacySession | undefined;

  constructor(
    private readonly app: ServerApp,
    options: ConnectionOptions,
  ) {
    this.dispatcher = new Dispatcher(app);
    this.session = options.stateless
      ? undefined
      : {
          protocolVersion: undefined,
          clientLevel: 'info',
          limiter: sessionLimiter(app),
          taskOwner: randomUUID(),
          notify: (notification) => this.send({ jsonrpc: '2.0', ...notification } as JSONRPCMessage),
        };
  }

  async connect(transport: Transport): Promise<void> {
    this.transport = transport;
    const previous = transport.onclose;
    transport.onclose = () => {
      previous?.();
      this.closed();
    };
    transport.onmessage = (message, extra) =>
      this.receive(message, extra?.requestInfo as RequestInfo | undefined);
    await transport.start();
  }

  async close(): Promise<void> {
    await this.transport?.close();
  }

  private receive(message: JSONRPCMessage, http: RequestInfo | undefined): void {
    if (!('method' in message)) return; // A response: this server sends no requests.
    if ('id' in message) {
      void this.answer(message.id, message.method, message.params, http);
      return;
    }
    if (message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RpcId } | undefined)?.requestId;
      if (id === undefined) return;
      this.running.get(id)?.abort();
      this.running.delete(id);
    }
  }

  private async answer(id: RpcId, method: string, params: unknown, http: RequestInfo | undefined) {
    const header = headerOf(http?.headers, 'mcp-protocol-version');
    // Over HTTP the header decides the era; over stdio (no headers) the message does.
    const era = classify(
      { method, params },
      http === undefined ? undefined : { protocolVersionHeader: header },
    );
    const aborter = new AbortController();
    this.running.set(id, aborter);
    const caller: Caller = {
      era,
      signal: aborter.signal,
      send: (notification) =>
        this.send({ jsonrpc: '2.0', ...notification } as JSONRPCMessage, { relatedRequestId: id }),
      client: http === undefined ? 'stdio' : (clientAddressOf(http) ?? 'unknown'),
      session: era === 'legacy' ? this.session : undefined,
      protocolVersionHeader: header,
    };
    const reply = await this.dispatcher.answer(id, method, params, caller);
    if (this.running.get(id) === aborter) this.running.delete(id);
    // A cancelled request gets no answer (in every revision).
    if (!aborter.signal.aborted) await this.send(reply as JSONRPCMessage, { relatedRequestId: id });
  }

  private async send(message: JSONRPCMessage, options?: { relatedRequestId: RpcId }): Promise<void> {
    await this.transport?.send(message, options).catch(() => undefined);
  }

  private closed(): void {
    for (const aborter of this.running.values()) aborter.abort();
    this.running.clear();
    if (this.session !== undefined) taskStoreOf(this.app).closeOwner(this.session.taskOwner);
  }
}

function headerOf(headers: RequestInfo['headers'] | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}
