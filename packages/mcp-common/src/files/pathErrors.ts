// The refusals of path confinement, each with a stable code. Messages quote the path exactly as the client
// sent it (secrets masked), never a server-side path and never a bare file name that could name another file.
import { echoOfClientText } from '../masking/clientEcho.js';
import { maskSecrets } from '../masking/masking.js';
import { ToolError } from '../tools/toolError.js';
import type { FileKind } from './fileKind.js';

/**
 * The path as the client sent it, secrets masked; an oversized one is cut the way maskForClient expects, so the
 * client still reads its own text (not the last segment alone).
 */
function quoted(given: string): string {
  return `'${maskSecrets(echoOfClientText(given))}'`;
}

export class PathOutsideAllowedError extends ToolError {
  constructor(given: string) {
    super(
      'PATH_NOT_ALLOWED',
      `Path ${quoted(given)} is outside the directories this server may read; pass a path inside them (relative paths resolve against the first one).`,
    );
  }
}

/** The path argument itself is unusable: NUL byte, too long, too many segments, a loop of links. */
export class InvalidPathError extends ToolError {
  constructor(given: string, problem: string) {
    super('INVALID_PATH', `Path ${quoted(given)} ${problem}`);
  }
}

export class PathNotFoundError extends ToolError {
  constructor(given: string) {
    super('PATH_NOT_FOUND', `Path ${quoted(given)} does not exist; check the spelling, or list its folder.`);
  }
}

/** The path names something other than what the tool reads (a FIFO, a device, a folder for a file…). */
export class WrongFileKindError extends ToolError {
  constructor(
    given: string,
    readonly found: FileKind,
    readonly expected: 'regular file' | 'directory',
  ) {
    super(
      'WRONG_FILE_KIND',
      `Path ${quoted(given)} is a ${found}, not a ${expected}; pass the path of a ${expected}.`,
    );
  }
}

export class FileTooLargeError extends ToolError {
  constructor(given: string, size: number, maxBytes: number) {
    super(
      'FILE_TOO_LARGE',
      `File ${quoted(given)} holds ${size} bytes or more, over the ${maxBytes} this tool reads at once.`,
    );
  }
}

export class PathAccessError extends ToolError {
  constructor(given: string, problem: string) {
    super('PATH_NOT_ACCESSIBLE', `Path ${quoted(given)} ${problem}`);
  }
}
