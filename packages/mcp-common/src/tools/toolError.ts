import { DomainError } from '../domainError.js';

/**
 * A DomainError thrown by an adapter (src/mcp/): the same contract, kept (after masking) by the tool runner.
 * Anything else a tool throws is treated as unexpected.
 *
 * @example throw new ToolError('COLUMN_NOT_FOUND', "column 'emial' does not exist; columns are: id, email");
 */
export class ToolError extends DomainError {
  override readonly name: string = 'ToolError';
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
