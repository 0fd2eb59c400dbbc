// Domain errors of the context server: a stable code and a message that says how to fix the call. The tool
// runner sends them as they are (masked).
import { DomainError } from '@groundwork/mcp-common/domainError';

/** A file argument that names no file of the scanned project. */
export class UnknownFileError extends DomainError {
  constructor(argument: string, given: string, suggestions: readonly string[]) {
    const hint =
      suggestions.length > 0
        ? ` Did you mean: ${suggestions.join(', ')}?`
        : ' Call project_tree to list the files it knows.';
    super(
      'UNKNOWN_FILE',
      `Invalid argument '${argument}': '${given}' is not a source file of this project (it may be missing, ignored, binary or too large).${hint}`,
    );
  }
}

export class NotADirectoryError extends DomainError {
  constructor(given: string) {
    super('NOT_A_DIRECTORY', `Path '${given}' is not a directory; pass the project's root folder as 'path'.`);
  }
}

/**
 * A config file the TypeScript resolver would open by path is a FIFO, socket, device or a link that does not
 * lead to a regular file inside: oxc-resolver opens such names without checking their kind, and a FIFO
 * would block the server for good, so the project's imports are not resolved at all.
 */
export class UnsafeConfigFileError extends DomainError {
  constructor(file: string, problem: string) {
    super(
      'UNSAFE_CONFIG_FILE',
      `The project's '${file}' ${problem}; TypeScript/JavaScript imports are resolved only when every package.json, tsconfig and jsconfig file is a regular file inside the project. Replace it with a regular file or remove it.`,
    );
  }
}
