// The tool SPI: what a groundwork tool implements. Nothing here mentions the MCP SDK; mcp-common
// translates these types to the protocol.
import type { z } from 'zod';
import type { AnswerBudget } from '../answers/answerBudget.js';
import type { AllowedPaths } from '../files/allowedPaths.js';
import type { CallMemory } from '../limits/memoryBudget.js';
import type { ToolResult } from './toolResult.js';

/** Hints a client may use to decide how much to trust and confirm a call (MCP tool annotations). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  /** snake_case, unique within a server. */
  name: string;
  title: string;
  /** Written for a model: what the tool answers, when to call it, what it costs. */
  description: string;
  input: Input;
  /**
   * When given, results carry `structuredContent` validated against it, and the same JSON (compact) as their
   * text block, so a client that reads only `content` sees the whole answer (the operator may trade that for
   * a short summary: `--text-block summary`).
   */
  output?: z.ZodObject;
  annotations: ToolAnnotations;
  /**
   * The argument (tokens) by which a caller sets this tool's answer budget (`ctx.answer`), when it is not the
   * usual optional `max_tokens` (which needs no mention here): e.g. a required `budget_tokens`.
   */
  budgetArgument?: string;
  /**
   * Whether a client may run this tool as a task (the `io.modelcontextprotocol/tasks` extension): set
   * `'optional'` on calls that may run long. A client without tasks support always gets the ordinary call.
   * Default `'forbidden'`.
   */
  taskSupport?: 'forbidden' | 'optional';
}

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Logs to the client (MCP `notifications/message`, at the level it chose) and to the server's own log. */
export interface ToolLog {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warning(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export interface ToolContext {
  /** Aborted when the client cancels the call or goes away; long work should check it often. */
  signal: AbortSignal;
  /** Reports progress; sent only when the client asked for it, and throttled. */
  progress(done: number, total?: number, message?: string): void;
  log: ToolLog;
  /** The only directories this tool may touch. */
  allowedPaths: AllowedPaths;
  /**
   * What this call's answer may cost (tokens and characters of its text block): the default, or what the
   * caller asked with `max_tokens` when the tool declares it. Fit lists into it with fitList; an answer over
   * it is replaced by an error saying `truncated: true`.
   */
  answer: AnswerBudget;
  /** The hard ceiling on a result (bytes of its JSON, `--max-result-bytes`), whatever the budget. */
  maxResultBytes: number;
  /**
   * The server's memory budget (`--memory-mb`), shared by all calls: a tool that sizes its own tables
   * reserves them here and works with what it is granted. Whatever the call still holds is released when it ends.
   */
  memory: CallMemory;
  /**
   * The server's switches (ServerSpec.switches) the operator turned on at start, e.g. `allow-build-execution`:
   * a tool that does something risky refuses unless its switch is here. Absent: none.
   */
  switches?: ReadonlySet<string>;
}

export interface McpTool<Input extends z.ZodObject = z.ZodObject> {
  definition: ToolDefinition<Input>;
  apply(args: z.output<Input>, ctx: ToolContext): Promise<ToolResult>;
}

/** Declares a tool with its argument types inferred from its input schema. */
export function defineTool<Input extends z.ZodObject>(tool: McpTool<Input>): McpTool {
  return tool as unknown as McpTool;
}
