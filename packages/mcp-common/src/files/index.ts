// @groundwork/mcp-common/files — the one way groundwork servers read and write client-named files.
//
// A tool never opens a path string from a client. It asks its AllowedPaths (ctx.allowedPaths) for a handle:
//   openFile(given)      → ConfinedFile       a regular file, held open; read/stream/readAt through it
//   openDirectory(given) → ConfinedDirectory  a directory, held open; list or stat its entries, open children
//                                             relative to it (checked the same way)
//   writeFile(given, …)  → WrittenFile        create or replace a regular file (adopt)
// and passes the handle down (cores may import the types from here; this module is pure: no SDK, no zod).
//
// How a path becomes a handle (docs/architecture.md, "Path confinement"):
// - The argument is capped (PATH_LIMITS: 4,096 bytes, 256 segments, 40 symbolic links) and refused with
//   INVALID_PATH beyond that, before any file system work; a NUL byte is refused too.
// - It is walked one segment at a time through directory descriptors opened with O_NOFOLLOW|O_DIRECTORY; each
//   symbolic link is read and walked by us, so the kernel never follows one. The work is linear in the path
//   and checks the call's abort signal at every step. A `..` is never applied to text: after a missing segment
//   (resolve, writeFile's createParents) the walk goes on by name until a `..` climbs back out, then resumes at
//   the real directory, so `nope/../link` is judged by where `link` leads (as os.path.realpath judges it);
//   createParents makes folders only once the whole path is judged inside; resolve re-checks its answer.
// - The final entry is judged by lstat before it is opened: a FIFO, socket or device is refused by kind
//   (WRONG_FILE_KIND, "is a FIFO (named pipe), not a regular file") and never opened. Regular files are then
//   opened with O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_NOCTTY (nothing can block the libuv threadpool), fstat'ed
//   (what was opened is what counts), and their real location is read back from the descriptor (Linux:
//   /proc/self/fd/N; elsewhere realpath plus a device/inode comparison) and checked against the roots.
// - Every later read goes through that descriptor, so swapping a link or a file afterwards changes nothing.
// - Hard links: a file with a second name (nlink > 1) is read — the name asked for lies inside the roots, so
//   its bytes are reachable by an allowed name whatever other names it has (and pnpm stores and
//   `git clone --local` make such files everywhere); `{ refuseHardLinks: true }` refuses it where the tree's
//   author is not trusted and fs.protected_hardlinks is off. Writes always refuse one: writing through the
//   allowed name would change the file under its other name, which may be outside.
// - Refusals quote the path as the client sent it (secrets masked): PATH_NOT_ALLOWED, PATH_NOT_FOUND,
//   WRONG_FILE_KIND, INVALID_PATH, PATH_NOT_ACCESSIBLE, FILE_TOO_LARGE. A path outside the roots is refused as
//   outside whether or not it exists (no existence oracle).
//
// @example
//   await using file = await ctx.allowedPaths.openFile(args.path, { signal: ctx.signal });
//   const text = await file.readText({ maxBytes: 16 * 1024 * 1024, signal: ctx.signal });
//
// Native libraries that only take a path (better-sqlite3) may use `file.descriptorPath` (/proc/self/fd/N of
// the checked descriptor) while the handle stays open; see ConfinedFile.descriptorPath for the caveats.
export {
  ConfinedDirectory,
  type DirectoryEntry,
  type EntryIdentity,
  type FileOpenOptions,
  type OpenOptions,
  type WriteOptions,
  type WrittenFile,
} from './confinedDirectory.js';
export { ConfinedFile, type ReadOptions, type StreamOptions } from './confinedFile.js';
export type { FileKind } from './fileKind.js';
export type { FileRereader } from './fileRereader.js';
export {
  FileTooLargeError,
  InvalidPathError,
  PathAccessError,
  PathNotFoundError,
  PathOutsideAllowedError,
  WrongFileKindError,
} from './pathErrors.js';
export { PATH_LIMITS } from './pathWalk.js';
