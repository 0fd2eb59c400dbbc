// Progress of work done in phases (scan, then parse, then resolve…), each counting from zero, reported on the
// one scale MCP progress needs: it must only grow, so each phase continues where the last one ended.
import type { ToolContext } from './tool.js';

/** Reports `done` of `total` in `phase`; `detail` (default: the phase) is the message the client shows. */
export type PhaseProgress = (phase: string, done: number, total?: number, detail?: string) => void;

/** Turns per-phase counts into one growing progress, reported through `progress` (usually `ctx.progress`). */
export function phasedProgress(progress: ToolContext['progress']): PhaseProgress {
  let current: string | undefined;
  let base = 0;
  let reached = 0;
  return (phase, done, total, detail) => {
    if (phase !== current) {
      if (current !== undefined) base = reached;
      current = phase;
    }
    reached = Math.max(reached, base + Math.max(done, total ?? done));
    progress(base + done, total === undefined ? undefined : base + total, detail ?? phase);
  };
}
