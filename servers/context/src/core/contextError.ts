// Domain errors of the context server: a stable code and a message that says how to fix the call.

export class ContextError extends Error {
  override readonly name = 'ContextError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A file argument that names no file of the scanned project. */
export class UnknownFileError extends ContextError {
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

export class NotADirectoryError extends ContextError {
  constructor(given: string) {
    super('NOT_A_DIRECTORY', `Path '${given}' is not a directory; pass the project's root folder as 'path'.`);
  }
}

/** Raised between units of work when the caller aborted. */
export class CancelledError extends ContextError {
  constructor() {
    super('CANCELLED', 'The request was cancelled.');
  }
}
