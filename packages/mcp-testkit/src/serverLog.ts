// Reads a server's pino log (JSON lines on stderr) for what the wire cannot show.

/** How many times the log says a call of `tool` was cancelled (mcp-common logs it when the call ends). */
export function cancelledCallCount(stderr: string, tool: string): number {
  return stderr
    .split('\n')
    .filter((line) => line.includes('"msg":"tool call cancelled"') && line.includes(`"tool":"${tool}"`))
    .length;
}
