// Everything exported here is public API of @groundwork/mcp-common; nothing else is (besides the pure
// `@groundwork/mcp-common/masking`, `@groundwork/mcp-common/childProcess` and `@groundwork/mcp-common/sarif` subpaths, which domain cores and CLIs may use).
// The stdout guard comes first: it must be in place before any other module is evaluated.
import './stdoutGuard.js';
// Then zod's settings, before any schema is built.
import './zodSettings.js';

export { AllowedPaths } from './allowedPaths.js';
export { completeFrom, completePath, type PathCompletionOptions } from './completers.js';
export { completeListItem } from './listCompletion.js';
export { type CallMemory, MemoryBudget, type MemoryReservation } from './memoryBudget.js';
export {
  type Completer,
  type Completion,
  type CompletionContext,
  type CompletionRequest,
  definePrompt,
  MAX_COMPLETION_VALUES,
  type McpPrompt,
  type PromptArgument,
  type PromptContext,
  type PromptDefinition,
  type PromptMessage,
} from './prompt.js';
export { runServer, type ServerSpec } from './runServer.js';
export {
  defineTool,
  type LogLevel,
  type McpTool,
  type ToolAnnotations,
  type ToolContext,
  type ToolDefinition,
  type ToolLog,
} from './tool.js';
export {
  optionalBoolean,
  optionalBoundedInt,
  optionalInt,
  optionalString,
  pathArg,
  requiredInt,
  requiredString,
  stringList,
} from './toolArguments.js';
export { InvalidArgumentError, ToolError } from './toolError.js';
export { ToolResult } from './toolResult.js';
