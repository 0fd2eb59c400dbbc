// Starts a .mcp.json stdio server the way Claude Code does, and asks it what it offers: `initialize`, then
// `notifications/initialized`, then `tools/list` (every page), over its stdin and stdout, one JSON-RPC message a
// line. Only when the operator allows running repository code: the server is repository code. It runs through
// mcp-common's runChild (its own process group, a deadline, dies with the doctor) with the scrubbed environment
// adopt_repo gives repository code — the safe variables and what the entry itself sets, expanded from those
// only, so no credential of the doctor's environment reaches it — and it is stopped once it has answered.
import {
  ChildCancelledError,
  type ChildConversation,
  ChildMissingError,
  ChildTimeoutError,
  MAX_LINE_CHARS,
  runChild,
  scrubbedEnv,
} from '@groundwork/mcp-common/childProcess';
import { maskForClient } from '@groundwork/mcp-common/masking';
import { expandVariables, type McpServer } from './mcpServers.js';

/** The revision the doctor offers at initialize; servers answer with the one they speak. */
const PROTOCOL_VERSION = '2025-06-18';
const MAX_TOOL_PAGES = 20;
/** The most of one answer kept while its line arrives in pieces. */
const MAX_MESSAGE_CHARS = 4_000_000;
const STDERR_LINES_KEPT = 5;
/** Tool names kept (each cut at 200 characters); the count is whole. */
const MAX_TOOLS_KEPT = 1_000;

export type StartOutcome =
  | { status: 'started'; protocol_version: string; server_name?: string; tools: string[]; tool_count: number }
  | { status: 'failed' | 'not-started'; reason: string };

export interface StartOptions {
  /** The repository's real path: the server's working directory, and what `${CLAUDE_PROJECT_DIR}` stands for. */
  root: string;
  timeoutMs: number;
  /** Where the safe variables come from (the doctor's environment). */
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export async function startServer(server: McpServer, options: StartOptions): Promise<StartOutcome> {
  if (server.transport !== 'stdio' || server.command === undefined) {
    return {
      status: 'not-started',
      reason: 'only stdio servers are started; a remote one is checked as written',
    };
  }
  const safe = scrubbedEnv(options.env);
  const unset = new Set<string>();
  const expand = (value: string) =>
    expandVariables(value, safe, unset).replace(/\$\{?CLAUDE_(?:PROJECT_DIR|PLUGIN_ROOT)\}?/g, options.root);
  const command = expand(server.command);
  const args = (server.args ?? []).map(expand);
  const set = Object.fromEntries(
    Object.entries(server.env ?? {}).map(([key, value]) => [key, expand(value)]),
  );
  if (unset.size > 0) {
    return {
      status: 'not-started',
      reason: `it needs ${[...unset].map((name) => `\${${name}}`).join(', ')}, which the doctor does not pass to repository code (its environment is scrubbed)`,
    };
  }
  const session = new Session();
  try {
    const result = await runChild(command, args, {
      cwd: options.root,
      timeoutMs: options.timeoutMs,
      inheritFrom: options.env,
      inherit: [],
      set,
      maxOutputBytes: 64 * 1024,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      converse: (child) => session.begin(child),
      onLine: (line, stream) => session.line(line, stream),
    });
    return (
      session.outcome() ??
      session.failed(`exited (code ${result.code}) before answering ${session.waitingFor}`)
    );
  } catch (error) {
    if (error instanceof ChildTimeoutError)
      return (
        session.outcome() ??
        session.failed(
          `did not answer ${session.waitingFor} within ${options.timeoutMs / 1000} s; it was killed`,
        )
      );
    if (error instanceof ChildMissingError)
      return session.failed(`'${command}' is not installed or not on PATH`);
    if (error instanceof ChildCancelledError) return { status: 'failed', reason: 'the call was cancelled' };
    throw error;
  }
}

/** One conversation with a starting server, fed line by line. */
class Session {
  private child: ChildConversation | undefined;
  private pending = '';
  private readonly stderr: string[] = [];
  private readonly tools: string[] = [];
  private toolCount = 0;
  private pages = 0;
  private result: StartOutcome | undefined;
  private protocolVersion = '';
  private serverName: string | undefined;
  waitingFor = 'initialize';

  begin(child: ChildConversation): void {
    this.child = child;
    this.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'groundwork-adopt-doctor', version: '1' },
      },
    });
  }

  line(text: string, stream: 'stdout' | 'stderr'): void {
    if (this.result !== undefined) return;
    if (stream === 'stderr') {
      this.stderr.push(text.slice(0, 300));
      if (this.stderr.length > STDERR_LINES_KEPT) this.stderr.shift();
      return;
    }
    this.pending += text;
    let message: unknown;
    try {
      message = JSON.parse(this.pending);
    } catch {
      // A line longer than MAX_LINE_CHARS arrives in pieces: wait for the rest (within bounds).
      if (text.length === MAX_LINE_CHARS && this.pending.length < MAX_MESSAGE_CHARS) return;
      this.finish(
        this.failed(
          `printed something on stdout that is not JSON-RPC: ${JSON.stringify(this.pending.slice(0, 120))}`,
        ),
      );
      return;
    }
    this.pending = '';
    this.receive(message);
  }

  outcome(): StartOutcome | undefined {
    return this.result;
  }

  failed(why: string): StartOutcome {
    const stderr = this.stderr.filter((line) => line.trim() !== '');
    const tail = stderr.length === 0 ? '' : `; its last words on stderr: ${stderr.join(' | ')}`;
    return { status: 'failed', reason: maskForClient(`${why}${tail}`) };
  }

  private receive(message: unknown): void {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.finish(
        this.failed(`sent ${JSON.stringify(message).slice(0, 80)}, which is not a JSON-RPC message`),
      );
      return;
    }
    const { id, method, result, error } = message as Record<string, unknown>;
    if (typeof method === 'string') {
      // A request of the server's own (ping, roots/list …): answered so it does not wait; notifications are ignored.
      if (id !== undefined)
        this.send(
          method === 'ping'
            ? { jsonrpc: '2.0', id, result: {} }
            : {
                jsonrpc: '2.0',
                id,
                error: { code: -32601, message: `${method} is not offered by the doctor` },
              },
        );
      return;
    }
    if (error !== undefined) {
      const text =
        typeof error === 'object' && error !== null
          ? String((error as { message?: unknown }).message)
          : String(error);
      this.finish(this.failed(`answered ${this.waitingFor} with an error: ${text.slice(0, 300)}`));
      return;
    }
    const body = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
    if (id === 1) {
      if (typeof body.protocolVersion !== 'string') {
        this.finish(this.failed('answered initialize without a protocolVersion'));
        return;
      }
      this.protocolVersion = body.protocolVersion;
      const info = body.serverInfo as { name?: unknown } | undefined;
      if (typeof info?.name === 'string') this.serverName = info.name.slice(0, 200);
      this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      this.listTools(undefined);
      return;
    }
    if (id === 1 + this.pages) {
      if (!Array.isArray(body.tools)) {
        this.finish(this.failed('answered tools/list without a tools array'));
        return;
      }
      for (const tool of body.tools) {
        const name = (tool as { name?: unknown } | null)?.name;
        if (typeof name !== 'string') continue;
        this.toolCount++;
        if (this.tools.length < MAX_TOOLS_KEPT) this.tools.push(name.slice(0, 200));
      }
      if (typeof body.nextCursor === 'string' && this.pages < MAX_TOOL_PAGES) this.listTools(body.nextCursor);
      else
        this.finish({
          status: 'started',
          protocol_version: this.protocolVersion,
          ...(this.serverName === undefined ? {} : { server_name: this.serverName }),
          tools: this.tools,
          tool_count: this.toolCount,
        });
    }
  }

  private listTools(cursor: string | undefined): void {
    this.pages++;
    this.waitingFor = 'tools/list';
    this.send({
      jsonrpc: '2.0',
      id: 1 + this.pages,
      method: 'tools/list',
      params: cursor === undefined ? {} : { cursor },
    });
  }

  private send(message: object): void {
    this.child?.write(`${JSON.stringify(message)}\n`);
  }

  /** Done: the server has said what it offers (or failed), and is stopped with everything it started. */
  private finish(outcome: StartOutcome): void {
    this.result = outcome;
    this.child?.end();
    this.child?.stop();
  }
}
