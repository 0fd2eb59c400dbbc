// The logs of the builds this server ran, each spooled whole (up to a cap) to a private file, so an agent
// pages a run's log by its run id instead of re-running the build. The oldest runs are dropped first; the
// folder is removed when the server stops, SIGKILL included (mcp-common's watchdog).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { removeIfServerDies } from '@groundwork/mcp-common/childProcess';
import { UnknownRunError } from './runErrors.js';

export interface RunLogLimits {
  /** Runs kept; the oldest is dropped (with its log) when one more starts. */
  maxRuns: number;
  /** Bytes of one run's log kept on disk; the rest is counted, not written. */
  maxLogBytes: number;
}

/** The run id that names the newest run kept. */
export const LATEST_RUN = 'latest';

export const DEFAULT_RUN_LOG_LIMITS: RunLogLimits = { maxRuns: 32, maxLogBytes: 64 * 1024 * 1024 };

export interface LogPage {
  /** The text from `offset`, cut at a line end when it does not reach the end of the log. */
  text: string;
  offset: number;
  /** Where the next page starts; absent at the end of the log. */
  next_offset?: number;
  /** Bytes of the log as kept. */
  total_bytes: number;
}

interface KeptRun<Summary> {
  file: string;
  /** The real path of the build the run ran in (server-side: never answered). */
  root?: string | undefined;
  summary?: Summary;
}

export class RunLogs<Summary = unknown> {
  private dir: string | undefined;
  private forget: (() => void) | undefined;
  private readonly runs = new Map<string, KeptRun<Summary>>();

  constructor(readonly limits: RunLogLimits = DEFAULT_RUN_LOG_LIMITS) {}

  /**
   * A new run id and the file its log is spooled to (mode 0600, in a 0700 folder of this server); `root` is the
   * real path of the build it runs in, for completing later calls' task names from it.
   */
  start(root?: string): { id: string; file: string; scratch: string } {
    const dir = this.folder();
    while (this.runs.size >= this.limits.maxRuns) this.drop(this.runs.keys().next().value as string);
    const id = `run-${randomBytes(6).toString('hex')}`;
    const file = path.join(dir, `${id}.log`);
    this.runs.set(id, { file, root });
    return { id, file, scratch: path.join(dir, id) };
  }

  /** Keeps what a run answered, for tools that compare a later run with it. */
  record(id: string, summary: Summary): void {
    const run = this.runs.get(id);
    if (run !== undefined) run.summary = summary;
  }

  /** What the kept runs answered, newest first (runs still going, or that failed to start, are left out). */
  summaries(): Array<{ id: string; summary: Summary; root?: string | undefined }> {
    return [...this.runs]
      .flatMap(([id, run]) =>
        run.summary === undefined ? [] : [{ id, summary: run.summary, root: run.root }],
      )
      .reverse();
  }

  summary(id: string): Summary {
    const run = this.runs.get(id);
    if (run?.summary === undefined) throw new UnknownRunError(id);
    return run.summary;
  }

  /** Up to `maxBytes` of the log from byte `offset`; `latest` is the newest run kept. */
  async page(id: string, offset: number, maxBytes: number): Promise<LogPage> {
    const run = this.runs.get(id === LATEST_RUN ? ([...this.runs.keys()].pop() ?? id) : id);
    if (run === undefined) throw new UnknownRunError(id);
    const handle = await open(run.file, 'r').catch(() => {
      throw new UnknownRunError(id);
    });
    try {
      const total = (await handle.stat()).size;
      const start = Math.min(Math.max(0, offset), total);
      const buffer = Buffer.alloc(Math.min(maxBytes, total - start));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
      let end = bytesRead;
      if (start + end < total) {
        const newline = buffer.subarray(0, end).lastIndexOf(0x0a);
        if (newline !== -1) end = newline + 1;
      }
      // Never cut a UTF-8 character: back up to the start of a sequence.
      while (end > 0 && start + end < total && ((buffer[end] as number) & 0xc0) === 0x80) end -= 1;
      const page: LogPage = {
        text: buffer.subarray(0, end).toString('utf8'),
        offset: start,
        total_bytes: total,
      };
      if (start + end < total) page.next_offset = start + end;
      return page;
    } finally {
      await handle.close();
    }
  }

  /** Removes every log (the server is stopping). */
  async close(): Promise<void> {
    if (this.dir !== undefined) await rm(this.dir, { recursive: true, force: true });
    this.forget?.();
    this.dir = undefined;
    this.runs.clear();
  }

  private folder(): string {
    if (this.dir === undefined) {
      this.dir = mkdtempSync(path.join(tmpdir(), 'groundwork-build-runs-'));
      this.forget = removeIfServerDies(this.dir);
    }
    return this.dir;
  }

  private drop(id: string): void {
    const run = this.runs.get(id);
    this.runs.delete(id);
    if (run === undefined) return;
    rmSync(run.file, { force: true });
    rmSync(path.join(path.dirname(run.file), id), { recursive: true, force: true });
  }
}
