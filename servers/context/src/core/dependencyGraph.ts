// The project's files and their resolved edges, with the walks the tools need: nearest-first reach in
// either direction.
import type { Language } from './languages.js';

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

export class DependencyGraph {
  readonly files: ReadonlyMap<string, GraphFile>;
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

  neighbours(file: string, direction: Direction): string[] {
    const forward = direction === 'dependents' ? [] : (this.files.get(file)?.dependencies ?? []);
    const backward = direction === 'dependencies' ? [] : this.dependentsOf(file);
    return [...forward, ...backward];
  }

  /**
   * Files within `depth` edges of the `starts` (excluded), breadth-first: nearest first, ties by path.
   */
  reach(starts: readonly string[], depth: number, direction: Direction): Reached[] {
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
}
