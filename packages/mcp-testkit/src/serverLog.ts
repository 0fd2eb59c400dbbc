// Reads a server's pino log (JSON lines on stderr) for what the wire cannot show.
import { HANG_GUARD_MS, waitFor } from './serverProcess.js';

/** How many times the log says a call of `tool` was cancelled (mcp-common logs it when the call ends). */
export function cancelledCallCount(stderr: string, tool: string): number {
  return stderr
    .split('\n')
    .filter((line) => line.includes('"msg":"tool call cancelled"') && line.includes(`"tool":"${tool}"`))
    .length;
}

/** How many calls of `tool` the log says have started (logged at debug level before the tool runs). */
export function startedCallCount(stderr: string, tool: string): number {
  return stderr
    .split('\n')
    .filter((line) => line.includes('"msg":"tool call started"') && line.includes(`"tool":"${tool}"`)).length;
}

/**
 * Resolves once `count()` exceeds `before` — an event the server logs, not a guess at how long it takes.
 * The bound is only there so a broken server fails the test instead of hanging it.
 */
export async function logged(
  count: () => number,
  before: number,
  what: string,
  log: () => string,
): Promise<void> {
  if (!(await waitFor(() => count() > before))) {
    throw new Error(
      `the server never logged ${what} (a hang guard of ${HANG_GUARD_MS / 1000} s); stderr:\n${log().slice(-4000)}`,
    );
  }
}
