// Everything exported here is public API of @groundwork/mcp-common; nothing else is (besides the pure
// `@groundwork/mcp-common/masking`, `/childProcess`, `/files`, `/git` and `/domainError` subpaths, which domain
// cores may use, and `/sarif`, which CLIs use).
// The stdout guard comes first: it must be in place before any other module is evaluated.
import './stdio/stdoutGuard.js';
// Then zod's settings, before any schema is built.
import './server/zodSettings.js';

export {
  type AnswerBudget,
  answerBudget,
  DEFAULT_ANSWER_TOKENS,
  maxTokensArgument,
  pagingArguments,
  pagingOutput,
} from './answers/answerBudget.js';
export { cursorKey, decodeCursor, encodeCursor } from './answers/cursor.js';
export { answerFits, type FitOptions, type Fitted, fitList, type Paging } from './answers/fitList.js';
export { countTokens } from './answers/tokenCount.js';
export { CancelledError, DomainError, throwIfAborted } from './domainError.js';
export { AllowedPaths } from './files/allowedPaths.js';
export { type CallMemory, MemoryBudget, type MemoryReservation } from './limits/memoryBudget.js';
export { completeFrom, completePath, type PathCompletionOptions } from './prompts/completers.js';
export { completeListItem } from './prompts/listCompletion.js';
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
} from './prompts/prompt.js';
export type { ServerSwitch } from './server/commandLine.js';
export { runServer, type ServerSpec } from './server/runServer.js';
export { type PhaseProgress, phasedProgress } from './tools/phasedProgress.js';
export {
  defineTool,
  type LogLevel,
  type McpTool,
  type ToolAnnotations,
  type ToolContext,
  type ToolDefinition,
  type ToolLog,
} from './tools/tool.js';
export {
  optionalBoolean,
  optionalBoundedInt,
  optionalInt,
  optionalString,
  pathArg,
  requiredInt,
  requiredString,
  stringList,
} from './tools/toolArguments.js';
export { InvalidArgumentError, ToolError } from './tools/toolError.js';
export { ToolResult } from './tools/toolResult.js';
