// Everything exported here is public API of @groundwork/mcp-testkit; nothing else is.
export { defaultBudgetProblem } from './answerSize.js';
export {
  type ConformanceCheck,
  type ConformanceResult,
  describeFailures,
  EXTENSION_SCENARIOS,
  NOT_APPLICABLE,
  REQUIRED_CONFORMANCE_SCENARIOS,
  REQUIREMENT_SETS,
  type RequirementSet,
  runConformance,
  tally,
} from './conformance.js';
export type { CompletionSample, ToolCall, TransportContractSpec } from './contractSpec.js';
export { nullPaths, snakeCaseKeys } from './jsonChecks.js';
export { seededRandom } from './seededRandom.js';
export { cancelledCallCount, logged, startedCallCount } from './serverLog.js';
export { type HttpServerProcess, runBin, startHttpServer } from './serverProcess.js';
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
  type ToolMention,
  toolCalls,
  toolMentionProblems,
  toolMentions,
} from './toolMentions.js';
export { describeTransportContract } from './transportContract.js';
