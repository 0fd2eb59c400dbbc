// Everything exported here is public API of @groundwork/mcp-common; nothing else is (besides the pure
// `@groundwork/mcp-common/masking`, `/childProcess`, `/files`, `/git` and `/domainError` subpaths, which domain
// cores may use, and `/sarif`, which CLIs use).
// The stdout guard comes first: it must be in place before any other module is evaluated.
import './stdoutGuard.js';
// Then zod's settings, before any schema is built.
import './zodSettings.js';

export {
  type AnswerBudget,
  answerBudget,
  cursorArgument,
  DEFAULT_ANSWER_TOKENS,
  MAX_ANSWER_TOKENS,
  MAX_ERROR_CHARS,
  maxTokensArgument,
  pagingArguments,
  pagingOutput,
  type TextBlock,
} from './answers/answerBudget.js';
export { cursorKey, decodeCursor, encodeCursor, InvalidCursorError } from './answers/cursor.js';
export { answerFits, type FitOptions, type Fitted, fitList, type Paging } from './answers/fitList.js';
export { countTokens } from './answers/tokenCount.js';
export type { ServerSwitch } from './commandLine.js';
export { completeFrom, completePath, type PathCompletionOptions } from './completers.js';
export { CancelledError, DomainError, throwIfAborted } from './domainError.js';
export { AllowedPaths } from './files/allowedPaths.js';
export { completeListItem } from './listCompletion.js';
export { type CallMemory, MemoryBudget, type MemoryReservation } from './memoryBudget.js';
export { type PhaseProgress, phasedProgress } from './phasedProgress.js';
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
