/**
 * An expected failure a tool reports to its caller: the message is kept (after masking) and should say
 * what was wrong and how to fix it. Anything else thrown by a tool is treated as unexpected.
 *
 * @example throw new ToolError('COLUMN_NOT_FOUND', "column 'emial' does not exist; columns are: id, email");
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The argument a client sent is missing or wrong; the message names it. */
export class InvalidArgumentError extends ToolError {
  constructor(
    readonly argument: string,
    problem: string,
  ) {
    super('INVALID_ARGUMENT', `Invalid argument '${argument}': ${problem}`);
  }
}
