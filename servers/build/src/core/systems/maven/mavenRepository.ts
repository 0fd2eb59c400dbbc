// The operator's local Maven repository, read for the BOMs and parents a tree's POMs name but do not hold.
// It is hostile input like the tree: opened as its own boundary (a link out of it is refused), each POM capped
// in size, a budget of POMs per reading, coordinates checked before they become a path. What was read is
// remembered with its identity so a cached answer can tell a changed repository POM (unchangedSince).
import type { ConfinedDirectory, EntryIdentity } from '@groundwork/mcp-common/files';
import { throwIfAborted } from '../../buildError.js';
import { type Pom, parsePom } from './mavenReactor.js';

/** A repository POM larger than this is not read (spring-boot-dependencies, among the largest, is ~100 KB). */
export const MAX_REPOSITORY_POM_BYTES = 1024 * 1024;
/**
 * Repository POMs one reading of the tree reads at most. A Spring Boot build reads about a hundred (its
 * parents and the BOMs spring-boot-dependencies imports); past the budget the answer is unknown and says so.
 */
export const MAX_REPOSITORY_POMS = 500;
/**
 * Rounds of reading one tree goes at most: each round recomputes every tree POM's management, and a round is
 * needed per link of a chain of repository POMs (a parent's parent, a BOM's import); real builds need a few.
 */
export const MAX_REPOSITORY_ROUNDS = 64;

/** Maven's own characters for a groupId's part, an artifactId or a version (`.` and `..` refused besides). */
const COORDINATE = /^[A-Za-z0-9_.-]+$/;

/** Where the operator's repository is: its handle (undefined when it cannot be opened) and how answers name it. */
export interface RepositoryLocation {
  directory: ConfinedDirectory | undefined;
  /** Why there is no handle, in words naming no server path (default: it is not there). */
  unopened?: string | undefined;
  /** Its name in answers: as the operator gave it, or `~/.m2/repository` (never a server path otherwise). */
  shown: string;
}

/**
 * One reading's view of the repository. PomVersions asks synchronously (pomAt); what it asks for and is not
 * read yet is `wanted`, read by readWanted, and the tree is read again until nothing more is wanted.
 */
export class MavenRepository {
  private readonly poms = new Map<string, Pom | string>();
  private readonly wanted = new Set<string>();
  private read = 0;
  private rounds = 0;
  /** Every folder and POM read, relative to the repository, as it was seen; undefined once a link was read. */
  identities: Map<string, EntryIdentity> | undefined = new Map();

  constructor(
    private readonly location: RepositoryLocation,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** The repository POM `group:artifact:version`, or why there is none (asked for: read on the next round). */
  pomAt(coordinates: string): Pom | string {
    const known = this.poms.get(coordinates);
    if (known !== undefined) return known;
    this.wanted.add(coordinates);
    return PENDING;
  }

  /** Whether an answer is only "not read yet" (the reading goes another round). */
  isPending(answer: Pom | string): boolean {
    return answer === PENDING;
  }

  /** Whether something was asked for that is not read yet. */
  hasWanted(): boolean {
    return this.wanted.size > 0;
  }

  /**
   * Reads what was asked for, in the order it was asked (the budget cuts the last ones asked); past
   * MAX_REPOSITORY_ROUNDS rounds, answers it unread.
   */
  async readWanted(): Promise<void> {
    const batch = [...this.wanted];
    this.wanted.clear();
    if (++this.rounds >= MAX_REPOSITORY_ROUNDS) {
      const reason = `was not read: the local repository's POMs were followed ${MAX_REPOSITORY_ROUNDS} parents and imports deep for this tree`;
      for (const coordinates of batch) this.poms.set(coordinates, reason);
      return;
    }
    for (const coordinates of batch) {
      throwIfAborted(this.signal);
      this.poms.set(
        coordinates,
        ++this.read > MAX_REPOSITORY_POMS
          ? `was not read: ${MAX_REPOSITORY_POMS} POMs of the local repository ${this.location.shown} were read for this tree already`
          : await this.readPom(coordinates),
      );
    }
  }

  private async readPom(coordinates: string): Promise<Pom | string> {
    const [group = '', artifact = '', version = '', ...rest] = coordinates.split(':');
    const shown = this.location.shown;
    const folders = [...group.split('.'), artifact, version];
    if (rest.length > 0 || !folders.every((part) => COORDINATE.test(part) && part !== '.' && part !== '..')) {
      return `cannot be looked up in the local repository ${shown}: they are not plain Maven coordinates`;
    }
    const name = `${artifact}-${version}.pom`;
    const relative = `${folders.join('/')}/${name}`;
    const file = `${shown}/${relative}`;
    const directory = this.location.directory;
    if (directory === undefined)
      return `is not in the local repository ${shown} (${this.location.unopened ?? 'it is not there'})`;
    this.remember('.', directory.stat);
    const opened: ConfinedDirectory[] = [];
    try {
      let folder = directory;
      let path = '';
      for (const part of folders) {
        path = path === '' ? part : `${path}/${part}`;
        const entry = await folder.statEntry(part);
        if (entry === undefined) return `is not in the local repository ${shown} (no ${path}/)`;
        // Remembered before it is opened: a folder refused (permissions, not a folder) is checked again
        // when it changes, not only when its parent does.
        this.remember(path, entry.isSymbolicLink() ? undefined : entry);
        folder = await folder.openDirectory(part, { signal: this.signal });
        opened.push(folder);
      }
      const [entry] = folder.statEntries([name]);
      if (entry === undefined) return `is not in the local repository ${shown} (no ${relative})`;
      let text: string;
      if (entry.isSymbolicLink()) {
        // Followed the checked way (a link out of the repository is refused); its target is not seen by lstat.
        this.remember(relative, undefined);
        const handle = await folder.openFile(name, { signal: this.signal });
        try {
          text = await handle.readText({ maxBytes: MAX_REPOSITORY_POM_BYTES, signal: this.signal });
        } finally {
          await handle.close();
        }
      } else {
        // Remembered before it is read: a POM refused (too large, unreadable) is read again once it changes.
        this.remember(relative, entry);
        text = folder.readTextSync(name, { maxBytes: MAX_REPOSITORY_POM_BYTES });
      }
      const pom = await parsePom(file, text).catch((error: Error) => error);
      if (pom instanceof Error) {
        return `could not be read from the local repository ${shown}: ${relative} does not parse (${pom.message.split('\n')[0]})`;
      }
      if (pom.artifactId !== artifact) {
        return `is not in the local repository ${shown}: ${relative} is the POM of ${pom.groupId ?? '?'}:${pom.artifactId}`;
      }
      return pom;
    } catch (error) {
      throwIfAborted(this.signal);
      return `could not be read from the local repository ${shown}: ${relative} ${refusal(error)}`;
    } finally {
      await Promise.all(opened.map((handle) => handle.close()));
    }
  }

  private remember(relative: string, identity: EntryIdentity | undefined): void {
    if (identity === undefined) this.identities = undefined;
    else this.identities?.set(relative, identity);
  }
}

const PENDING = 'is not read yet';

/** Why a repository file was refused, in words that name no server path (mcp-common's refusals, by code). */
function refusal(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FILE_TOO_LARGE':
      return `is larger than the ${MAX_REPOSITORY_POM_BYTES} bytes read of a repository POM`;
    case 'WRONG_FILE_KIND':
      return 'is not a regular file';
    case 'PATH_NOT_ALLOWED':
      return 'is a link that leads out of the repository';
    case 'PATH_NOT_FOUND':
      return 'is gone (it changed while it was read)';
    default:
      return 'cannot be read (a loop of links, permissions, or it changed while it was read)';
  }
}
