// The build server's domain errors: mcp-common's DomainError with the codes the static readers use. The tool
// runner sends the message as it is (masked), so no adapter translates them.
import { DomainError } from '@groundwork/mcp-common/domainError';

export { throwIfAborted } from '@groundwork/mcp-common/domainError';

export type BuildErrorCode =
  | 'NO_BUILD_FOUND'
  | 'MODULE_NOT_FOUND'
  | 'DEPENDENCY_NOT_FOUND'
  | 'BUILD_EXECUTION_NOT_ALLOWED'
  | 'WORKSPACE_TOO_LARGE';

export class BuildError extends DomainError {
  override readonly name: string = 'BuildError';
  constructor(code: BuildErrorCode, message: string) {
    super(code, message);
  }
}
