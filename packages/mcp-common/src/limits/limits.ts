// Every limit a groundwork server enforces, in one table: its default, its flag and its environment
// variable (the flag wins). The usage text and the documentation are written from this table.

export interface Limits {
  /** Largest request: an HTTP body or a stdio line. */
  maxRequestBytes: number;
  /** Largest tool result (its JSON); a bigger one is replaced by a bounded `truncated` answer. */
  maxResultBytes: number;
  /** Most messages in one HTTP JSON-RPC batch. */
  maxBatch: number;
  /** Tool calls running at once in the whole server. */
  maxCalls: number;
  /** Tool calls running at once in one session (stdio is one session). */
  maxSessionCalls: number;
  /** Memory the calls of the whole server may reserve for their own tables (bytes); see memoryBudget.ts. */
  memoryBytes: number;
  /** Tool calls waiting for a slot, per limit (server and session); beyond it a call is refused. */
  maxQueuedCalls: number;
  /** Open streamable-HTTP sessions. */
  maxSessions: number;
  /** Open streamable-HTTP sessions of one client address. */
  maxSessionsPerClient: number;
  /** A streamable-HTTP session idle this long is closed. */
  sessionIdleMs: number;
  /** A session that has not sent `notifications/initialized` within this is closed. */
  uninitializedSessionMs: number;
  /** Open HTTP connections. */
  maxConnections: number;
  /** Time a client has to send its request headers. */
  headersTimeoutMs: number;
  /** Time a client has to send its whole request. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Tasks (finished ones included, until they expire) the whole server keeps. */
  maxTasks: number;
  /** Tasks of one session (stdio, streamable HTTP) or one client address (stateless requests). */
  maxTasksPerClient: number;
  /** How long a task and its result are kept after it was created, when the client asks for nothing else. */
  taskTtlMs: number;
  /** The longest a client may ask a task to be kept; a running task is cancelled when it expires. */
  maxTaskTtlMs: number;
}

interface LimitSpec {
  key: keyof Limits;
  flag: string;
  env: string;
  fallback: number;
  min: number;
  max: number;
  /** The flag's unit, multiplied into the limit (e.g. seconds → 1000 ms). */
  unit: 'bytes' | 'megabytes' | 'count' | 'seconds' | 'minutes';
  help: string;
}

const MIB = 1024 * 1024;

export const LIMIT_SPECS: readonly LimitSpec[] = [
  spec(
    'maxRequestBytes',
    'max-request-bytes',
    4 * MIB,
    1024,
    256 * MIB,
    'bytes',
    'largest HTTP body or stdio line',
  ),
  spec('maxResultBytes', 'max-result-bytes', 4 * MIB, 1024, 64 * MIB, 'bytes', 'largest tool result (JSON)'),
  spec('maxBatch', 'max-batch', 16, 1, 1000, 'count', 'most messages in one HTTP batch'),
  spec('maxCalls', 'max-calls', 8, 1, 1000, 'count', 'tool calls running at once in the server'),
  spec('maxSessionCalls', 'max-session-calls', 4, 1, 1000, 'count', 'tool calls running at once per session'),
  // Two heavy calls at a tool's own default cap (data: 512 MB) fit a 2–4 GB machine; more share it.
  spec(
    'memoryBytes',
    'memory-mb',
    1024,
    16,
    1024 * 1024,
    'megabytes',
    'memory all calls together may reserve (MB)',
  ),
  spec(
    'maxQueuedCalls',
    'max-queued-calls',
    32,
    0,
    10_000,
    'count',
    'calls waiting per limit before refusal',
  ),
  spec('maxSessions', 'max-sessions', 10_000, 1, 1_000_000, 'count', 'open streamable-HTTP sessions'),
  spec(
    'maxSessionsPerClient',
    'max-sessions-per-client',
    100,
    1,
    1_000_000,
    'count',
    'sessions per client address',
  ),
  spec('sessionIdleMs', 'session-idle-minutes', 30, 1, 24 * 60, 'minutes', 'close sessions idle this long'),
  spec(
    'uninitializedSessionMs',
    'uninitialized-session-seconds',
    10,
    1,
    3600,
    'seconds',
    'close sessions not initialized by then',
  ),
  spec('maxConnections', 'max-connections', 1024, 1, 100_000, 'count', 'open HTTP connections'),
  spec('headersTimeoutMs', 'headers-timeout-seconds', 10, 1, 600, 'seconds', 'time to send request headers'),
  spec('requestTimeoutMs', 'request-timeout-seconds', 30, 1, 3600, 'seconds', 'time to send a whole request'),
  // Longer than Node's 5 s: a client reuses an idle connection until about a second before the server's
  // advertised timeout, so a busy client's next request could meet the server closing it ("other side closed").
  spec(
    'keepAliveTimeoutMs',
    'keep-alive-seconds',
    30,
    1,
    600,
    'seconds',
    'idle keep-alive connections close',
  ),
  // Tasks (the io.modelcontextprotocol/tasks extension): see tasks/taskStore.ts.
  spec('maxTasks', 'max-tasks', 256, 1, 1_000_000, 'count', 'tasks kept in the server'),
  spec(
    'maxTasksPerClient',
    'max-tasks-per-client',
    16,
    1,
    1_000_000,
    'count',
    'tasks kept per session or client',
  ),
  spec('taskTtlMs', 'task-ttl-minutes', 10, 1, 24 * 60, 'minutes', 'keep a task and its result this long'),
  spec(
    'maxTaskTtlMs',
    'max-task-ttl-minutes',
    60,
    1,
    24 * 60,
    'minutes',
    'longest task lifetime a client may ask',
  ),
];

function spec(
  key: keyof Limits,
  flag: string,
  fallback: number,
  min: number,
  max: number,
  unit: LimitSpec['unit'],
  help: string,
): LimitSpec {
  return {
    key,
    flag,
    env: `GROUNDWORK_${flag.toUpperCase().replaceAll('-', '_')}`,
    fallback,
    min,
    max,
    unit,
    help,
  };
}

const UNIT_FACTOR: Record<LimitSpec['unit'], number> = {
  bytes: 1,
  megabytes: MIB,
  count: 1,
  seconds: 1000,
  minutes: 60_000,
};

class LimitError extends Error {}

/** Reads each limit from its flag, else its environment variable, else its default. */
export function limitsFrom(flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv): Limits {
  const limits: Partial<Limits> = {};
  for (const limit of LIMIT_SPECS) {
    const fromFlag = flags[limit.flag];
    const given = fromFlag ?? env[limit.env];
    const source = fromFlag === undefined ? limit.env : `--${limit.flag}`;
    limits[limit.key] = limitValue(limit, given, source) * UNIT_FACTOR[limit.unit];
  }
  const complete = limits as Limits;
  // Node requires it, and a client cannot send a request before its headers anyway.
  if (complete.headersTimeoutMs > complete.requestTimeoutMs) {
    throw new LimitError('--headers-timeout-seconds must not exceed --request-timeout-seconds.');
  }
  if (complete.taskTtlMs > complete.maxTaskTtlMs) {
    throw new LimitError('--task-ttl-minutes must not exceed --max-task-ttl-minutes.');
  }
  return complete;
}

/** The defaults, for tests and embedders. */
export function defaultLimits(): Limits {
  return limitsFrom({}, {});
}

function limitValue(limit: LimitSpec, given: string | undefined, source: string): number {
  if (given === undefined || given === '') return limit.fallback;
  const number = Number(given);
  if (!Number.isInteger(number) || number < limit.min || number > limit.max) {
    throw new LimitError(`${source} must be an integer from ${limit.min} to ${limit.max}, got '${given}'.`);
  }
  return number;
}

/** The usage text's section on limits. */
export function limitsUsage(): string {
  return LIMIT_SPECS.map((limit) => {
    const option = `  --${limit.flag} <n>`.padEnd(38);
    return `${option}${limit.help} (default ${limit.fallback}; ${limit.env})`;
  }).join('\n');
}
