// The protocol core: one table of the methods this server answers, in which era each is offered, and the one
// place a request becomes its reply. Every transport classifies a message (eras.ts) and hands it here; the
// tools, prompts, resources and limits behind each method are the same whichever era carried it.
import type { CallLimiter } from '../limits/callLimiter.js';
import { promptsOf } from '../prompts/promptCatalog.js';
import { listResources, readResource } from '../resources/resources.js';
import type { ServerApp } from '../server/serverApp.js';
import type { SkillCatalog } from '../skills/skillCatalog.js';
import {
  cancelLegacyTask,
  getLegacyTask,
  legacyTaskResult,
  listLegacyTasks,
  startLegacyTask,
} from '../tasks/legacyTasks.js';
import { answerModernTaskMethod, startModernTask } from '../tasks/modernTasks.js';
import type { LogLevel } from '../tools/tool.js';
import { isLogLevel, runToolCall, type Send, type ToolCallRequest } from '../tools/toolCalls.js';
import { capabilitiesOf } from './capabilities.js';
import { type Era, LEGACY_REVISIONS, META, SUPPORTED_REVISIONS } from './eras.js';
import { type RequestMeta, readRequestMeta } from './requestMeta.js';
import { errorBodyOf, RpcError, type RpcErrorBody, RpcErrorCode, type RpcId } from './rpcError.js';

/** One JSON-RPC answer: a result or an error, always carrying the request's id. */
export type Reply =
  | { jsonrpc: '2.0'; id: RpcId; result: Record<string, unknown> }
  | { jsonrpc: '2.0'; id: RpcId; error: RpcErrorBody };

/** What a legacy client's session keeps between its requests (stdio, a streamable-HTTP session). */
export interface LegacySession {
  /** Negotiated at initialize. */
  protocolVersion: string | undefined;
  /** Set by logging/setLevel: the lowest level of log notifications the client receives. */
  clientLevel: LogLevel;
  /** Bounds the calls of this session (the server-wide limit applies too). */
  readonly limiter: CallLimiter;
  /** The session's tasks are its own: no other session sees them, and they go when it closes. */
  readonly taskOwner: string;
  /** Sends a notification that belongs to no request (a task's status). */
  readonly notify: Send;
}

/** Who asks, and how to reach them while the request runs. */
export interface Caller {
  era: Era;
  /** Aborted when the client cancels the request or goes away. */
  signal: AbortSignal;
  /** Sends a notification related to this request (progress, log messages). */
  send: Send;
  /** Who asks (HTTP: the client address): what a task it creates counts against without a session. */
  client: string;
  /** A legacy client's session; undefined for stateless HTTP and for every modern request. */
  session?: LegacySession | undefined;
  /** A stateless legacy request's MCP-Protocol-Version header (there is no session to remember one). */
  protocolVersionHeader?: string | undefined;
}

interface MethodRequest {
  app: ServerApp;
  params: Record<string, unknown>;
  caller: Caller;
  /** A modern request's `_meta`, checked (undefined for a legacy request). */
  meta: RequestMeta | undefined;
}

interface Method {
  eras: readonly Era[];
  /** False when this server does not offer the method to this caller (answered -32601, as if unknown). */
  offered?(request: MethodRequest): boolean;
  /** Whether a modern result may be cached (SEP-2549): it changes only with a new server version. */
  cached?: boolean;
  handle(request: MethodRequest): Promise<Record<string, unknown>> | Record<string, unknown>;
}

const LEGACY: readonly Era[] = ['legacy'];
const MODERN: readonly Era[] = ['modern'];
const BOTH: readonly Era[] = ['legacy', 'modern'];

/** The first revision whose clients read `structuredContent`; older ones get the JSON as text. */
const STRUCTURED_OUTPUT_VERSION = '2025-06-18';
/** The revision that brought tasks (and `execution.taskSupport` in tools/list). */
const TASKS_VERSION = '2025-11-25';

/** Caching hints (SEP-2549) for modern results built at start-up and the same for every client. */
const CACHE_HINTS = { ttlMs: 300_000, cacheScope: 'public' } as const;

const withSession = ({ caller }: MethodRequest) => caller.session !== undefined;

/** The skills extension's methods, offered when the server has a skills folder. */
function skillsMethod(
  answer: (skills: SkillCatalog, params: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Method {
  return {
    eras: BOTH,
    cached: true,
    offered: ({ app }) => app.skills !== undefined,
    handle: ({ app, params }) => answer(app.skills as SkillCatalog, params),
  };
}

const METHODS: Record<string, Method> = {
  initialize: { eras: LEGACY, handle: initialize },
  ping: { eras: LEGACY, handle: () => ({}) },
  // Stateless: a level set by one client would apply to every other.
  'logging/setLevel': {
    eras: LEGACY,
    offered: withSession,
    handle: ({ params, caller }) => {
      if (caller.session !== undefined) caller.session.clientLevel = params.level as LogLevel;
      return {};
    },
  },
  'server/discover': {
    eras: MODERN,
    cached: true,
    handle: ({ app }) => ({
      supportedVersions: [...SUPPORTED_REVISIONS],
      capabilities: capabilitiesOf(app, { era: 'modern', stateless: true }),
      serverInfo: serverInfoOf(app),
      ...(app.instructions === undefined ? {} : { instructions: app.instructions }),
    }),
  },
  'tools/list': { eras: BOTH, cached: true, handle: listTools },
  'tools/call': { eras: BOTH, handle: callTool },
  'resources/list': {
    eras: BOTH,
    cached: true,
    handle: async ({ app }) => ({ resources: await listResources(app) }),
  },
  'resources/templates/list': { eras: BOTH, cached: true, handle: () => ({ resourceTemplates: [] }) },
  'resources/read': {
    eras: BOTH,
    cached: true,
    handle: ({ app, params }) => readResource(app, String(params.uri)),
  },
  'prompts/list': { eras: BOTH, cached: true, handle: ({ app }) => ({ prompts: promptsOf(app).listing }) },
  'prompts/get': {
    eras: BOTH,
    handle: ({ app, params, caller }) =>
      promptsOf(app).render(params.name, params.arguments, {
        signal: caller.signal,
        allowedPaths: app.allowedPaths,
      }),
  },
  'completion/complete': {
    eras: BOTH,
    offered: ({ app }) => promptsOf(app).completable,
    handle: ({ app, params, caller }) =>
      promptsOf(app).complete(params, { signal: caller.signal, allowedPaths: app.allowedPaths }),
  },
  'skills/list': skillsMethod((skills, params) => skills.list(params)),
  'skills/get': skillsMethod((skills, params) => skills.get(params)),
  // Tasks: 2025-11-25 has them in its core (tasks/legacyTasks.ts), 2026-07-28 as an extension
  // (tasks/modernTasks.ts) without tasks/result and tasks/list.
  'tasks/get': {
    eras: BOTH,
    handle: ({ app, params, caller, meta }) =>
      meta === undefined
        ? getLegacyTask(app, params, caller)
        : answerModernTaskMethod(app, 'tasks/get', params, meta.clientCapabilities),
  },
  'tasks/cancel': {
    eras: BOTH,
    handle: ({ app, params, caller, meta }) =>
      meta === undefined
        ? cancelLegacyTask(app, params, caller)
        : answerModernTaskMethod(app, 'tasks/cancel', params, meta.clientCapabilities),
  },
  'tasks/update': {
    eras: MODERN,
    handle: ({ app, params, meta }) =>
      answerModernTaskMethod(app, 'tasks/update', params, (meta as RequestMeta).clientCapabilities),
  },
  'tasks/result': {
    eras: LEGACY,
    handle: ({ app, params, caller }) => legacyTaskResult(app, params, caller),
  },
  // A session's tasks fit one page (--max-tasks-per-client); without a session nobody owns a list.
  'tasks/list': {
    eras: LEGACY,
    offered: withSession,
    handle: ({ app, caller }) => listLegacyTasks(app, caller),
  },
};

export class Dispatcher {
  constructor(private readonly app: ServerApp) {}

  /** Answers one request. Never throws: every failure is a JSON-RPC error with the request's id. */
  async answer(id: RpcId, method: string, params: unknown, caller: Caller): Promise<Reply> {
    let meta: RequestMeta | undefined;
    if (caller.era === 'modern') {
      const read = readRequestMeta(params);
      if (!read.ok) return { jsonrpc: '2.0', id, error: read.error };
      meta = read.meta;
    }
    const request: MethodRequest = {
      app: this.app,
      params: (params ?? {}) as Record<string, unknown>,
      caller,
      meta,
    };
    const entry = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
    try {
      if (entry === undefined || !entry.eras.includes(caller.era) || entry.offered?.(request) === false) {
        // initialize, ping, logging/setLevel and resources/(un)subscribe are gone in 2026-07-28;
        // subscriptions/listen (nothing here ever changes) and resource subscriptions are not offered.
        throw new RpcError(RpcErrorCode.MethodNotFound, `Method not found: '${method.slice(0, 100)}'.`);
      }
      const result = await entry.handle(request);
      return { jsonrpc: '2.0', id, result: meta === undefined ? result : this.modernResult(entry, result) };
    } catch (error) {
      const body = errorBodyOf(error, (bug) => this.app.logger.error({ err: bug }, 'request failed'));
      return { jsonrpc: '2.0', id, error: body };
    }
  }

  private modernResult(entry: Method, result: Record<string, unknown>): Record<string, unknown> {
    return {
      // A tools/call that became a task says `resultType: "task"` itself.
      resultType: 'complete',
      ...result,
      ...(entry.cached === true ? CACHE_HINTS : {}),
      _meta: { [META.serverInfo]: serverInfoOf(this.app) },
    };
  }
}

function serverInfoOf(app: ServerApp): { name: string; version: string } {
  return { name: app.name, version: app.version };
}

/** A legacy client's revision: negotiated by its session, or named by a stateless request's header. */
function legacyVersionOf(caller: Caller): string | undefined {
  return caller.session === undefined ? caller.protocolVersionHeader : caller.session.protocolVersion;
}

function initialize({ app, params, caller }: MethodRequest): Record<string, unknown> {
  const requested = params.protocolVersion as string;
  // A revision this server does not speak is answered with its newest; the client decides whether to stay.
  const protocolVersion = (LEGACY_REVISIONS as readonly string[]).includes(requested)
    ? requested
    : LEGACY_REVISIONS[0];
  if (caller.session !== undefined) caller.session.protocolVersion = protocolVersion;
  return {
    protocolVersion,
    capabilities: capabilitiesOf(app, { era: 'legacy', stateless: caller.session === undefined }),
    serverInfo: serverInfoOf(app),
    ...(app.instructions === undefined ? {} : { instructions: app.instructions }),
  };
}

// A legacy client of a revision before tasks sees the tools without `execution`.
const toolsBeforeTasks = new WeakMap<ServerApp, { tools: unknown[] }>();

function listTools({ app, caller }: MethodRequest): Record<string, unknown> {
  const version = caller.era === 'legacy' ? legacyVersionOf(caller) : undefined;
  if (version === undefined || version >= TASKS_VERSION) return { tools: app.registry.listing };
  let listed = toolsBeforeTasks.get(app);
  if (listed === undefined) {
    listed = { tools: app.registry.listing.map(({ execution: _execution, ...tool }) => tool) };
    toolsBeforeTasks.set(app, listed);
  }
  return listed;
}

async function callTool({ app, params, caller, meta }: MethodRequest): Promise<Record<string, unknown>> {
  const version = meta === undefined ? legacyVersionOf(caller) : meta.protocolVersion;
  const session = caller.session;
  const call: ToolCallRequest = {
    tool: params.name as string,
    arguments: params.arguments,
    progressToken:
      meta === undefined
        ? (params._meta as { progressToken?: string | number } | undefined)?.progressToken
        : meta.progressToken,
    signal: caller.signal,
    send: caller.send,
    clientLevel:
      meta === undefined
        ? () => session?.clientLevel
        : () => (isLogLevel(meta.logLevel) ? meta.logLevel : undefined),
    // Without a session only the server-wide limit applies.
    sessionLimiter: session?.limiter,
    structuredOutput: version !== undefined && version >= STRUCTURED_OUTPUT_VERSION,
  };
  // A client that asked for a task (legacy: `params.task`; modern: the server decides for a client that
  // declared the tasks extension) gets one; every other call is answered here.
  const task =
    meta === undefined
      ? startLegacyTask(app, params, call, caller)
      : startModernTask(app, meta.clientCapabilities, call, caller.client);
  return task ?? (await runToolCall(app, call));
}
