// Binds the transport-neutral pieces (tool registry, usage document, logging) to an SDK Server. One
// Server serves one session; everything that can be built once lives in ServerApp and is shared.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  type InitializeRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type ServerNotification,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { AllowedPaths } from './allowedPaths.js';
import { CallLimiter } from './callLimiter.js';
import type { Limits } from './limits.js';
import type { Logger } from './logger.js';
import { maskValue } from './masking.js';
import { MemoryBudget } from './memoryBudget.js';
import type { LogLevel, ToolContext, ToolLog } from './tool.js';
import { type ToolRegistry, UnknownToolError } from './toolRegistry.js';

export interface ServerApp {
  name: string;
  version: string;
  instructions?: string;
  registry: ToolRegistry;
  allowedPaths: AllowedPaths;
  logger: Logger;
  /** The server's MCP_USAGE.md, offered as a resource. */
  usage?: string;
  limits: Limits;
}

export interface ProtocolServerOptions {
  /**
   * One Server answers every client (stateless HTTP): nothing per client may live in it, so
   * `logging/setLevel` is not offered there (a level set by one client would apply to all).
   */
  stateless: boolean;
}

// The first protocol version whose clients read `structuredContent`; older ones get the JSON as text.
const STRUCTURED_OUTPUT_VERSION = '2025-06-18';

// One limiter per app bounds the calls of all its sessions together.
const serverLimiters = new WeakMap<ServerApp, CallLimiter>();
function serverLimiter(app: ServerApp): CallLimiter {
  let limiter = serverLimiters.get(app);
  if (limiter === undefined) {
    limiter = new CallLimiter(app.limits.maxCalls, app.limits.maxQueuedCalls, 'the server');
    serverLimiters.set(app, limiter);
  }
  return limiter;
}

// Likewise one memory budget per app, shared by the calls of all its sessions.
const memoryBudgets = new WeakMap<ServerApp, MemoryBudget>();
function memoryBudget(app: ServerApp): MemoryBudget {
  let budget = memoryBudgets.get(app);
  if (budget === undefined) {
    budget = new MemoryBudget(app.limits.memoryBytes);
    memoryBudgets.set(app, budget);
  }
  return budget;
}

const LEVELS: readonly LogLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];
const PROGRESS_INTERVAL_MS = 100;

export function usageUri(app: ServerApp): string {
  return `groundwork://${app.name}/usage`;
}

// Left to itself, every SDK Server builds its own Ajv instance (about 18 KiB and 1 ms per session) for
// validating elicitation answers; one shared instance, built only if ever needed, serves every session.
let sharedValidator: AjvJsonSchemaValidator | undefined;
const lazyValidator: jsonSchemaValidator = {
  getValidator(schema) {
    sharedValidator ??= new AjvJsonSchemaValidator();
    return sharedValidator.getValidator(schema);
  },
};

export function createProtocolServer(app: ServerApp, options: ProtocolServerOptions): Server {
  const server = new Server(
    { name: app.name, version: app.version },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: {},
        ...(options.stateless ? {} : { logging: {} }),
      },
      ...(app.instructions === undefined ? {} : { instructions: app.instructions }),
      jsonSchemaValidator: lazyValidator,
    },
  );
  let clientLevel: LogLevel = 'info';
  const tools = { tools: app.registry.listing };
  const sessionLimiter = new CallLimiter(
    app.limits.maxSessionCalls,
    app.limits.maxQueuedCalls,
    'this session',
  );
  const negotiated = rememberProtocolVersion(server);

  if (!options.stateless) {
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      clientLevel = request.params.level;
      return {};
    });
  }
  server.setRequestHandler(ListToolsRequestSchema, () => tools);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = request.params.name;
    const send = (notification: ServerNotification) =>
      extra.sendNotification(notification).catch(() => undefined);
    const memory = memoryBudget(app).forCall(extra.signal);
    const ctx: ToolContext = {
      signal: extra.signal,
      progress: progressReporter(request.params._meta?.progressToken, send),
      log: toolLog(tool, app.logger, options.stateless ? () => undefined : () => clientLevel, send),
      allowedPaths: app.allowedPaths,
      maxResultBytes: app.limits.maxResultBytes,
      memory,
    };
    // In stateless mode each request names its protocol version in a header.
    const version = options.stateless
      ? headerOf(extra.requestInfo?.headers, 'mcp-protocol-version')
      : negotiated();
    const releaseSession = await sessionLimiter.acquire(extra.signal);
    let releaseServer: () => void;
    try {
      releaseServer = await serverLimiter(app).acquire(extra.signal);
    } catch (error) {
      releaseSession();
      throw error;
    }
    const started = Date.now();
    // Tests and operators wait for this line instead of guessing how long a start takes.
    app.logger.debug({ tool }, 'tool call started');
    try {
      return await app.registry.call(tool, request.params.arguments, ctx, {
        structuredOutput: version !== undefined && version >= STRUCTURED_OUTPUT_VERSION,
      });
    } catch (error) {
      if (error instanceof UnknownToolError) throw invalidParams(error.message);
      throw error;
    } finally {
      // Every exit (answer, error, cancellation) returns the call's memory before its slot.
      memory.releaseAll();
      releaseServer();
      releaseSession();
      // Shows that a cancelled call really stopped, and how long it took to notice.
      if (extra.signal.aborted) {
        app.logger.info({ tool, ms: Date.now() - started }, 'tool call cancelled');
      }
    }
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources:
      app.usage === undefined
        ? []
        : [
            {
              uri: usageUri(app),
              name: 'MCP_USAGE.md',
              title: `How to use ${app.name}`,
              description: 'Every tool of this server, its parameters, example calls and results.',
              mimeType: 'text/markdown',
            },
          ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    if (app.usage === undefined || request.params.uri !== usageUri(app)) {
      throw invalidParams(`Unknown resource '${request.params.uri}'.`);
    }
    return { contents: [{ uri: usageUri(app), mimeType: 'text/markdown', text: app.usage }] };
  });
  return server;
}

type Send = (notification: ServerNotification) => Promise<void>;

function progressReporter(token: string | number | undefined, send: Send): ToolContext['progress'] {
  if (token === undefined) return () => undefined;
  let lastSentAt = 0;
  let lastDone = Number.NEGATIVE_INFINITY;
  return (done, total, message) => {
    const now = Date.now();
    const finished = total !== undefined && done >= total;
    // Progress must increase, and a flood of notifications would cost more than the work they report.
    if (done <= lastDone || (!finished && now - lastSentAt < PROGRESS_INTERVAL_MS)) return;
    lastSentAt = now;
    lastDone = done;
    void send({
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress: done,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      },
    });
  };
}

/**
 * The protocol version this session negotiated at initialize. The SDK keeps it to itself, so its
 * initialize step is wrapped (it stays the SDK's own: capabilities and client info are still recorded).
 */
function rememberProtocolVersion(server: Server): () => string | undefined {
  let version: string | undefined;
  // biome-ignore lint/complexity/useLiteralKeys: a private SDK member; only element access may reach it
  const initialize = server['_oninitialize'].bind(server);
  // biome-ignore lint/complexity/useLiteralKeys: as above
  server['_oninitialize'] = async (request: InitializeRequest) => {
    const result = await initialize(request);
    version = result.protocolVersion;
    return result;
  };
  return () => version;
}

function headerOf(headers: Record<string, string | string[] | undefined> | undefined, name: string) {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `clientLevel` undefined: this client cannot receive log notifications (stateless mode). */
function toolLog(tool: string, logger: Logger, clientLevel: () => LogLevel | undefined, send: Send): ToolLog {
  const emit = (level: LogLevel, message: string, data?: Record<string, unknown>) => {
    const masked = data === undefined ? undefined : (maskValue(data) as Record<string, unknown>);
    const pinoLevel =
      level === 'warning' ? 'warn' : level === 'debug' ? 'debug' : level === 'info' ? 'info' : 'error';
    logger[pinoLevel]({ tool, ...masked }, message);
    const threshold = clientLevel();
    if (threshold === undefined || LEVELS.indexOf(level) < LEVELS.indexOf(threshold)) return;
    void send({
      method: 'notifications/message',
      params: { level, logger: tool, data: { message, ...masked } },
    });
  };
  return {
    debug: (message, data) => emit('debug', message, data),
    info: (message, data) => emit('info', message, data),
    warning: (message, data) => emit('warning', message, data),
    error: (message, data) => emit('error', message, data),
  };
}

/** An InvalidParams error sent with `message` as written (McpError would prefix it with "MCP error -32602: "). */
function invalidParams(message: string): Error {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}
