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
}

export type Direction = 'dependencies' | 'dependents' | 'both';

/** Imports that name something of the project that was not found: counted, with the first few as samples. */
export interface UnresolvedSummary {
  count: number;
  samples: Array<{ file: string; specifier: string }>;
}

const UNRESOLVED_SAMPLES = 20;

export class UnresolvedImports {
  private count = 0;
  private readonly samples: UnresolvedSummary['samples'] = [];

  add(file: string, specifier: string, level = 0): void {
    this.count++;
    if (this.samples.length < UNRESOLVED_SAMPLES)
      this.samples.push({ file, specifier: '.'.repeat(level) + specifier });
  }

  summary(): UnresolvedSummary {
    return { count: this.count, samples: [...this.samples] };
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
  reach(starts: readonly string[], depth: number, direction: 'dependencies' | 'dependents'): Reached[] {
    const distance = new Map<string, number>(starts.map((start) => [start, 0]));
    const reached: Reached[] = [];
    let frontier = [...starts];
    for (let level = 1; level <= depth && frontier.length > 0; level++) {
      const next: string[] = [];
      for (const file of frontier) {
        for (const neighbour of this.neighbours(file, direction)) {
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
