// Everything exported here is public API of @groundwork/mcp-testkit; nothing else is.
export { defaultBudgetProblem } from './answerSize.js';
export { tally } from './conformance.js';
export type { CompletionSample, ToolCall, TransportContractSpec } from './contractSpec.js';
export { sarifSchemaErrors } from './sarifSchema.js';
export { seededRandom } from './seededRandom.js';
export { cancelledCallCount, logged, startedCallCount } from './serverLog.js';
export { type HttpServerProcess, startHttpServer } from './serverProcess.js';
export {
  connectOverStdio,
  type PromptCompletion,
  type StdioSession,
  type StdioSessionOptions,
  type ToolOutcome,
} from './stdioSession.js';
export {
  type ShippedWorkflows,
  shippedWorkflowProblems,
  toolCalls,
  toolMentionProblems,
} from './toolMentions.js';
export { describeTransportContract } from './transportContract.js';
