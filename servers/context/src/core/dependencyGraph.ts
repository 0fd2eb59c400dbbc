// The project's files and their resolved edges, with the walks the tools need: nearest-first reach in
// either direction.
import type { Language } from './languages/fileLanguage.js';

export interface GraphFile {
  path: string;
  language?: Language;
  size: number;
  /** Local files this one imports, sorted. */
  dependencies: string[];
  /** External packages it imports, sorted. */
  externals: string[];
  /** Imports that named something of the project that was not found (Python's with their leading dots). */
  unresolved?: string[];
}

export type Direction = 'dependencies' | 'dependents' | 'both';

/** Imports that name something of the project that was not found: counted, with the first few as samples. */
export interface UnresolvedSummary {
  count: number;
  samples: Array<{ file: string; specifier: string }>;
}

/** Imports that resolve to a project file the scan leaves out (`#ansi` → `vendor/ansi.js`). */
export interface ExcludedSummary {
  count: number;
  /** The left-out files they lead to, by folder: how many imports reach each. */
  folders: Array<{ folder: string; imports: number }>;
  samples: Array<{ file: string; specifier: string; target: string }>;
}

const UNRESOLVED_SAMPLES = 20;

export class UnresolvedImports {
  private count = 0;
  private readonly samples: UnresolvedSummary['samples'] = [];
  private excludedCount = 0;
  private readonly excludedFolders = new Map<string, number>();
  private readonly excludedSamples: ExcludedSummary['samples'] = [];

  add(file: string, specifier: string, level = 0): void {
    this.count++;
    if (this.samples.length < UNRESOLVED_SAMPLES)
      this.samples.push({ file, specifier: '.'.repeat(level) + specifier });
  }

  addExcluded(file: string, specifier: string, target: string): void {
    this.excludedCount++;
    const folder = target.includes('/') ? target.slice(0, target.lastIndexOf('/')) : '.';
    this.excludedFolders.set(folder, (this.excludedFolders.get(folder) ?? 0) + 1);
    if (this.excludedSamples.length < UNRESOLVED_SAMPLES)
      this.excludedSamples.push({ file, specifier, target });
  }

  summary(): UnresolvedSummary {
    return { count: this.count, samples: [...this.samples] };
  }

  excluded(): ExcludedSummary {
    const folders = [...this.excludedFolders]
      .map(([folder, imports]) => ({ folder, imports }))
      .sort((a, b) => b.imports - a.imports || (a.folder < b.folder ? -1 : 1))
      .slice(0, UNRESOLVED_SAMPLES);
    return { count: this.excludedCount, folders, samples: [...this.excludedSamples] };
  }
}

export interface Reached {
  path: string;
  distance: number;
}

/** A file found walking from a start: which way it was reached (`both` when it is either) and how far. */
export interface DirectedReach extends Reached {
  direction: 'dependency' | 'dependent' | 'both';
}

let graphsBuilt = 0;

export class DependencyGraph {
  readonly files: ReadonlyMap<string, GraphFile>;
  /** Distinct per graph built in this process: a paging cursor names the graph it was cut from. */
  readonly stamp = ++graphsBuilt;
  private readonly dependents = new Map<string, string[]>();

  constructor(
    files: readonly GraphFile[],
    readonly unresolved: UnresolvedSummary = { count: 0, samples: [] },
    readonly excluded: ExcludedSummary = { count: 0, folders: [], samples: [] },
  ) {
    this.files = new Map(files.map((file) => [file.path, file]));
    for (const file of files) {
      for (const dependency of file.dependencies) {
        const list = this.dependents.get(dependency);
        if (list === undefined) this.dependents.set(dependency, [file.path]);
        else list.push(file.path);
      }
    }
  }

  dependentsOf(file: string): readonly string[] {
    return this.dependents.get(file) ?? [];
  }

  private neighbours(file: string, direction: 'dependencies' | 'dependents'): readonly string[] {
    return direction === 'dependencies'
      ? (this.files.get(file)?.dependencies ?? [])
      : this.dependentsOf(file);
  }

  /**
   * Files within `depth` edges of the `starts` (excluded), breadth-first in one direction: nearest first,
   * ties by path.
   */
  reach(
    starts: readonly string[],
    depth: number,
    direction: 'dependencies' | 'dependents',
    /** More neighbours of a file than its imports show (change_impact: Python's package `__init__.py`). */
    extra?: ReadonlyMap<string, readonly string[]>,
  ): Reached[] {
    const distance = new Map<string, number>(starts.map((start) => [start, 0]));
    const reached: Reached[] = [];
    let frontier = [...starts];
    for (let level = 1; level <= depth && frontier.length > 0; level++) {
      const next: string[] = [];
      for (const file of frontier) {
        for (const neighbour of [...this.neighbours(file, direction), ...(extra?.get(file) ?? [])]) {
          if (distance.has(neighbour)) continue;
          distance.set(neighbour, level);
          next.push(neighbour);
        }
      }
      next.sort();
      for (const file of next) reached.push({ path: file, distance: level });
      frontier = next;
    }
    return reached;
  }

  /**
   * `both` is the dependencies walked forward united with the dependents walked backward — never a mix of
   * the two within one walk (a sibling reached through a shared dependency is neither). A file found both
   * ways is `both`, at the nearer distance.
   */
  reachDirected(starts: readonly string[], depth: number, direction: Direction): DirectedReach[] {
    const found = new Map<string, DirectedReach>();
    const walks: Array<['dependencies' | 'dependents', 'dependency' | 'dependent']> = [];
    if (direction !== 'dependents') walks.push(['dependencies', 'dependency']);
    if (direction !== 'dependencies') walks.push(['dependents', 'dependent']);
    for (const [walk, label] of walks) {
      for (const entry of this.reach(starts, depth, walk)) {
        const seen = found.get(entry.path);
        if (seen === undefined) found.set(entry.path, { ...entry, direction: label });
        else
          found.set(entry.path, {
            ...seen,
            distance: Math.min(seen.distance, entry.distance),
            direction: 'both',
          });
      }
    }
    return [...found.values()].sort((a, b) => a.distance - b.distance || (a.path < b.path ? -1 : 1));
  }
}
