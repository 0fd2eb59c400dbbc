// Retries only what a retry can fix: transport-level failures (connection refused or reset, 5xx). Auth
// failures, 404s, rejected pushes and rate limits are final and reported at once.

export type FailureKind = 'transport' | 'auth' | 'not-found' | 'race' | 'rejected' | 'rate-limit' | 'other';

const PATTERNS: ReadonlyArray<[FailureKind, RegExp]> = [
  ['rate-limit', /rate limit|secondary rate|too many requests|\b429\b/i],
  [
    'auth',
    /authentication failed|could not read (username|password)|permission denied|\b40[13]\b|invalid credentials|bad credentials|terminal prompts disabled|not logged in|gh auth login/i,
  ],
  // Someone else moved the branch between our fetch and our push (checked before hook rejections).
  [
    'race',
    /\((?:fetch first|non-fast-forward|stale info)\)|updates were rejected because the (?:remote contains work|tip of your current branch is behind)|incorrect old value|cannot lock ref/i,
  ],
  [
    'rejected',
    /\[remote rejected\]|\[rejected\]|pre-receive hook declined|non-fast-forward|protected branch|failed to push some refs/i,
  ],
  [
    'not-found',
    /\b404\b|repository not found|not found|does not appear to be a git repository|does not exist/i,
  ],
  [
    'transport',
    /connection refused|connection reset|failed to connect|couldn't connect|connection timed out|operation timed out|\b5\d\d\b|rpc failed|early eof|the remote end hung up unexpectedly|unexpected disconnect|ssl_read|gnutls_handshake|empty reply from server/i,
  ],
];

export function classifyFailure(output: string): FailureKind {
  for (const [kind, pattern] of PATTERNS) if (pattern.test(output)) return kind;
  return 'other';
}

export interface RetryOptions {
  /** Further attempts after the first. */
  retries: number;
  /** First backoff; doubles each attempt (2 s, 4 s, 8 s …), capped at `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs?: number;
  onRetry?: (attempt: number, delayMs: number, reason: string) => void;
  signal?: AbortSignal;
}

export const DEFAULT_BACKOFF_BASE_MS = 2_000;
const DEFAULT_MAX_DELAY_MS = 30_000;

export function backoffDelay(
  attempt: number,
  baseDelayMs: number,
  maxDelayMs = DEFAULT_MAX_DELAY_MS,
): number {
  return Math.min(baseDelayMs * 2 ** (attempt - 1), maxDelayMs);
}

/**
 * Calls `attempt` until it returns a result that is not a transient failure or the retries run out.
 * `transientReason` says why a result should be retried (or undefined when it is final).
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  transientReason: (result: T) => string | undefined,
  options: RetryOptions,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    const result = await attempt();
    const reason = transientReason(result);
    if (reason === undefined || tries > options.retries || options.signal?.aborted) return result;
    const delay = backoffDelay(tries, options.baseDelayMs, options.maxDelayMs);
    options.onRetry?.(tries, delay, reason);
    await pause(delay, options.signal);
  }
}

/** Waits `ms`, or less when `signal` aborts (a cancelled call must not sit out its backoff). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    // An already-aborted signal never fires 'abort' again.
    if (signal?.aborted) return done();
    signal?.addEventListener('abort', done, { once: true });
  });
}
