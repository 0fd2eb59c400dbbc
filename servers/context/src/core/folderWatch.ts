// Tells whether anything under the scanned folders changed since the last scan, so a warm call on an
// unchanged tree need not stat every file again. One non-recursive watch per folder (inotify on Linux
// reports creations, deletions, renames and writes of the folder's entries); when watching is not
// possible the index simply scans every time.
import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';

const MAX_WATCHED_FOLDERS = 4096;

export class FolderWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private changed = true;
  private usable = true;

  constructor(private readonly root: string) {}

  /** True only when every scanned folder is watched and none has reported a change since `resetTo`. */
  get unchanged(): boolean {
    return this.usable && !this.changed && this.watchers.size > 0;
  }

  /** Called just before a scan: from now on, changes count against the scan that follows. */
  startScan(): void {
    this.changed = false;
  }

  /** Watches `folder` (relative to the root) if it is not yet; called before the scan lists it, so nothing is missed. */
  ensure(folder: string): void {
    if (!this.usable || this.watchers.has(folder)) return;
    if (this.watchers.size >= MAX_WATCHED_FOLDERS) {
      this.giveUp();
      return;
    }
    try {
      const watcher = watch(path.join(this.root, folder), { persistent: false }, () => {
        this.changed = true;
      });
      watcher.on('error', () => {
        this.changed = true;
        watcher.close();
        this.watchers.delete(folder);
      });
      this.watchers.set(folder, watcher);
    } catch {
      this.giveUp();
    }
  }

  /** Stops watching folders the last scan did not walk (deleted, now ignored). */
  prune(walked: readonly string[]): void {
    const kept = new Set(walked);
    for (const [folder, watcher] of this.watchers) {
      if (kept.has(folder)) continue;
      watcher.close();
      this.watchers.delete(folder);
    }
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private giveUp(): void {
    this.usable = false;
    this.close();
  }
}

/**
 * Lets file-system events that are already queued reach their watchers before a decision is made. Events are
 * read in the loop's poll phase; one setImmediate may run in the check phase right after the current poll
 * (when called from an I/O callback) with no poll in between, so a second one guarantees a full poll.
 */
export async function settleQueuedEvents(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}
