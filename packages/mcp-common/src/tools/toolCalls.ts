// Runs one tools/call for any protocol revision: the context a tool sees (signal, progress, log, paths,
// result limit), the call limits of the server and of the caller's session, and the log lines operators and
// tests wait for. The dispatcher calls this for both eras (and a task for its call), so a call behaves the
// same whichever revision carried it.
import { CallLimiter } from '../limits/callLimiter.js';
import { MemoryBudget } from '../limits/memoryBudget.js';
import type { Logger } from '../logger.js';
import { maskValue } from '../masking/masking.js';
import { RpcError, RpcErrorCode } from '../protocol/rpcError.js';
import type { ServerApp } from '../server/serverApp.js';
import type { LogLevel, ToolContext, ToolLog } from './tool.js';
import { type CallContext, type CallOutcome, UnknownToolError } from './toolRegistry.js';

/** A notification sent to the caller while its call runs (progress, log messages). */
export type Send = (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;

export interface ToolCallRequest {
  tool: string;
  arguments: unknown;
  progressToken: string | number | undefined;
  signal: AbortSignal;
  send: Send;
  /** The level the client asked for; undefined: it receives no log notifications. */
  clientLevel: () => LogLevel | undefined;
  /** The caller's session limiter (stdio and streamable HTTP); none for stateless requests. */
  sessionLimiter: CallLimiter | undefined;
  /** The client reads `structuredContent` (2025-06-18 and later). */
  structuredOutput: boolean;
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

// Likewise one memory budget per app, shared by the calls of all its sessions (and of every revision).
const memoryBudgets = new WeakMap<ServerApp, MemoryBudget>();
function memoryBudget(app: ServerApp): MemoryBudget {
  let budget = memoryBudgets.get(app);
  if (budget === undefined) {
    budget = new MemoryBudget(app.limits.memoryBytes);
    memoryBudgets.set(app, budget);
  }
  return budget;
}

export function sessionLimiter(app: ServerApp): CallLimiter {
  return new CallLimiter(app.limits.maxSessionCalls, app.limits.maxQueuedCalls, 'this session');
}

/** Throws a JSON-RPC error (code and message) for an unknown tool or a full queue. */
export async function runToolCall(app: ServerApp, request: ToolCallRequest): Promise<CallOutcome> {
  const { tool, signal } = request;
  const memory = memoryBudget(app).forCall(signal);
  const ctx: CallContext = {
    signal,
    progress: progressReporter(request.progressToken, request.send),
    log: toolLog(tool, app.logger, request.clientLevel, request.send),
    allowedPaths: app.allowedPaths,
    maxResultBytes: app.limits.maxResultBytes,
    memory,
    switches: app.switches ?? new Set(),
  };
  const releaseSession =
    request.sessionLimiter === undefined ? () => undefined : await request.sessionLimiter.acquire(signal);
  let releaseServer: () => void;
  try {
    releaseServer = await serverLimiter(app).acquire(signal);
  } catch (error) {
    releaseSession();
    throw error;
  }
  const started = Date.now();
  // Tests and operators wait for this line instead of guessing how long a start takes.
  app.logger.debug({ tool }, 'tool call started');
  try {
    return await app.registry.call(tool, request.arguments, ctx, {
      structuredOutput: request.structuredOutput,
    });
  } catch (error) {
    if (error instanceof UnknownToolError) throw new RpcError(RpcErrorCode.InvalidParams, error.message);
    throw error;
  } finally {
    // Every exit (answer, error, cancellation) returns the call's memory before its slot.
    memory.releaseAll();
    releaseServer();
    releaseSession();
    // Shows that a cancelled call really stopped, and how long it took to notice.
    if (signal.aborted) app.logger.info({ tool, ms: Date.now() - started }, 'tool call cancelled');
  }
}

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

/** `clientLevel` undefined: this client cannot receive log notifications (stateless requests). */
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

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LEVELS as readonly string[]).includes(value);
}
