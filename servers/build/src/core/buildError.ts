// The build server's domain errors: a stable code and a message that says what to do. The adapters turn
// them into tool errors; the core never builds a tool result.

export type BuildErrorCode =
  | 'NO_BUILD_FOUND'
  | 'MODULE_NOT_FOUND'
  | 'DEPENDENCY_NOT_FOUND'
  | 'BUILD_EXECUTION_NOT_ALLOWED'
  | 'WORKSPACE_TOO_LARGE'
  | 'CANCELLED';

export class BuildError extends Error {
  override readonly name = 'BuildError';
  constructor(
    readonly code: BuildErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new BuildError('CANCELLED', 'The call was cancelled.');
}
