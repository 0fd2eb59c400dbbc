// The build server's one domain error: mcp-common's DomainError with the codes its cores use, reading and
// running alike. The tool runner sends the message as it is (masked), so no adapter translates them; the
// named refusals of the running tools (runErrors.ts) are this error with a fixed code and message.
import { DomainError } from '@groundwork/mcp-common/domainError';

export { throwIfAborted } from '@groundwork/mcp-common/domainError';

export type BuildErrorCode =
  | 'NO_BUILD_FOUND'
  | 'MODULE_NOT_FOUND'
  | 'DEPENDENCY_NOT_FOUND'
  | 'WORKSPACE_TOO_LARGE'
  | 'INVALID_ARGUMENT'
  | 'BUILD_EXECUTION_NOT_ALLOWED'
  | 'WRAPPER_NOT_ALLOWED'
  | 'BUILD_TOOL_MISSING'
  | 'RUN_NOT_FOUND'
  | 'RUN_NOT_EXPLAINED'
  | 'RESOLVE_UNSUPPORTED'
  | 'RESOLVE_FAILED'
  | 'NETWORK_NEEDED';

export class BuildError extends DomainError {
  override readonly name: string = 'BuildError';
  constructor(
    override readonly code: BuildErrorCode,
    message: string,
  ) {
    super(code, message);
  }
}
