// What kind of file system object a stat describes, in words a client understands.
import type { Dirent, Stats } from 'node:fs';

export type FileKind =
  | 'regular file'
  | 'directory'
  | 'symbolic link'
  | 'FIFO (named pipe)'
  | 'socket'
  | 'character device'
  | 'block device'
  | 'file of unknown kind';

export function kindOf(stats: Stats | Dirent): FileKind {
  if (stats.isFile()) return 'regular file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symbolic link';
  if (stats.isFIFO()) return 'FIFO (named pipe)';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  return 'file of unknown kind';
}
