// What every build system reader is handed: the walked tree, and one place to report what it could not read.
import { type BuildTree, readProblem } from '../workspace/buildTree.js';
import type { BuildProblem, BuildSystemKind, BuildSystemModel } from '../workspace/model.js';
import type { MavenRepository } from './maven/mavenRepository.js';

export class ReadContext {
  readonly problems: BuildProblem[] = [];

  constructor(
    readonly tree: BuildTree,
    readonly signal: AbortSignal | undefined,
    /** The operator's local Maven repository, when one is read (BOMs and parents outside the tree). */
    readonly mavenRepository?: MavenRepository | undefined,
  ) {}

  /** The file's text; undefined (and a problem naming the file) when it cannot be read. */
  async text(file: string): Promise<string | undefined> {
    try {
      return await this.tree.read(file);
    } catch (error) {
      this.problems.push(readProblem(file, error));
      return undefined;
    }
  }

  /**
   * Every file of the tree named `name` (in any folder), in path order, with its text; one that cannot be read
   * is left out (its problem recorded).
   */
  async *textsNamed(name: string): AsyncGenerator<{ file: string; text: string }> {
    for (const file of [...this.tree.files.keys()].sort()) {
      if (!(file === name || file.endsWith(`/${name}`))) continue;
      const text = await this.text(file);
      if (text !== undefined) yield { file, text };
    }
  }

  problem(file: string, line: number | undefined, code: string, message: string): void {
    this.problems.push({ file, line, code, message });
  }

  /** A parser's refusal of `file`, at the line the parser gives (smol-toml's and ours carry `line`). */
  syntaxError(file: string, error: unknown, what = ''): void {
    const line = (error as { line?: number }).line;
    const reason = (error as Error).message.split('\n')[0];
    const where = `${file}${line === undefined ? '' : `:${line}`}`;
    this.problem(file, line, 'SYNTAX_ERROR', `${where}: ${what === '' ? reason : `${what} (${reason}).`}`);
  }
}

/** An empty model for a system rooted at `root`, to be filled by its reader. */
export function emptySystem(kind: BuildSystemKind, root: string): BuildSystemModel {
  return {
    kind,
    root,
    files: [],
    modules: [],
    edges: [],
    tools: [],
    settings: [],
    catalogs: [],
    dependencies: [],
    facts: [],
    problems: [],
  };
}

/** `a/b` joined onto a folder (`.` is the root), normalised; undefined when it climbs out of the root. */
export function joinPath(folder: string, relative: string): string | undefined {
  const parts = folder === '.' ? [] : folder.split('/');
  for (const part of relative.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length === 0 ? '.' : parts.join('/');
}

/** The folder of a tree path (`.` for a file at the root). */
export function folderOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash === -1 ? '.' : file.slice(0, slash);
}

/** A file in a folder, as a tree path. */
export function fileIn(folder: string, name: string): string {
  return folder === '.' ? name : `${folder}/${name}`;
}

/** The last segment of a folder path (the root's own name is not known to the core: `root`). */
export function baseName(folder: string): string {
  return folder === '.' ? 'root' : (folder.split('/').pop() as string);
}
