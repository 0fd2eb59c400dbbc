// The prompt and completion SPI: what a groundwork server declares besides tools. Like tool.ts, nothing
// here mentions the MCP SDK; mcp-common serves these as `prompts/list`, `prompts/get` and
// `completion/complete` on every transport and protocol revision.
import type { AllowedPaths } from '../files/allowedPaths.js';

/**
 * Suggests values for one argument. MCP completes prompt arguments (`ref/prompt`); the arguments of a
 * groundwork prompt mirror its tools' arguments (`path`, `file`, `column`, a failure id, a symbol…), so the
 * same completers serve a user filling in a prompt and an agent choosing a tool argument.
 */
export type Completer = (request: CompletionRequest, ctx: CompletionContext) => Promise<Completion>;

export interface CompletionRequest {
  /** What the user has typed so far for this argument (may be empty). */
  value: string;
  /** The prompt's other arguments the client has already filled in (e.g. the file whose columns to offer). */
  arguments: Readonly<Record<string, string>>;
}

export interface CompletionContext {
  /** Aborted when the client cancels or goes away. Completers are interactive: they should also be fast. */
  signal: AbortSignal;
  /** Completions are confined like every other path: only what lies under these may be suggested. */
  allowedPaths: AllowedPaths;
}

export interface Completion {
  /** At most `MAX_COMPLETION_VALUES` (100); mcp-common cuts longer lists and sets `hasMore`. */
  values: string[];
  /** How many values match in all, when known. */
  total?: number;
  hasMore?: boolean;
}

/** The MCP limit on one `completion/complete` answer. */
export const MAX_COMPLETION_VALUES = 100;

export interface PromptArgument {
  name: string;
  /** Written for a person choosing a value (prompts show as slash commands). */
  description: string;
  required?: boolean;
  /** Offers values for this argument through `completion/complete`. */
  complete?: Completer;
}

export interface PromptDefinition {
  /** kebab-case or snake_case, unique within a server. */
  name: string;
  title: string;
  description: string;
  arguments: readonly PromptArgument[];
}

/** One message of a rendered prompt; groundwork prompts are text. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  text: string;
}

export interface PromptContext {
  signal: AbortSignal;
  allowedPaths: AllowedPaths;
}

export interface McpPrompt {
  definition: PromptDefinition;
  /**
   * Renders the prompt. `args` holds every required argument (mcp-common refuses a `prompts/get` that lacks
   * one with -32602 naming it) and the optional ones the client sent; all are strings, as MCP sends them.
   */
  render(args: Readonly<Record<string, string>>, ctx: PromptContext): Promise<PromptMessage[]>;
}

/** Declares a prompt (the counterpart of `defineTool`). */
export function definePrompt(prompt: McpPrompt): McpPrompt {
  return prompt;
}
