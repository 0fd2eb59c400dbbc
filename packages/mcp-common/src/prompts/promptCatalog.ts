// Serves a server's prompts (`prompts/list`, `prompts/get`) and their argument completions
// (`completion/complete`) for every protocol revision: checks what the client sent, bounds what goes back,
// and turns a prompt's or completer's failure into a JSON-RPC error that names the prompt and leaks nothing.

import { DomainError } from '../domainError.js';
import { CallLimiter } from '../limits/callLimiter.js';
import type { Logger } from '../logger.js';
import { maskForClient, maskSecrets } from '../masking/masking.js';
import { RpcError, RpcErrorCode } from '../protocol/rpcError.js';
import {
  type Completion,
  type CompletionContext,
  MAX_COMPLETION_VALUES,
  type McpPrompt,
  type PromptContext,
} from './prompt.js';

/** What a client may send: at most this many arguments, each value at most this many characters. */
const PROMPT_LIMITS = { maxArguments: 64, maxValueChars: 16_384, maxCompletionValueChars: 4_096 };

interface PromptListing {
  name: string;
  title: string;
  description: string;
  arguments: Array<{ name: string; description: string; required: boolean }>;
}

interface RenderedPrompt {
  description: string;
  messages: Array<{ role: 'user' | 'assistant'; content: { type: 'text'; text: string } }>;
  [key: string]: unknown;
}

interface CompletionResult {
  completion: { values: string[]; total?: number; hasMore: boolean };
  [key: string]: unknown;
}

export class PromptCatalog {
  readonly listing: readonly PromptListing[];
  /** True when some argument has a completer: only then is `completions` announced. */
  readonly completable: boolean;
  private readonly byName: ReadonlyMap<string, McpPrompt>;
  // Completions run for every keystroke and are not tool calls, but they list folders and read headers:
  // without a bound of their own, a client sending a thousand at once held 1.6 GB and 2,000 descriptors.
  private readonly completing: CallLimiter;

  /** Throws at start-up on a duplicate prompt or argument name (a server bug, not a client's). */
  constructor(
    prompts: readonly McpPrompt[],
    private readonly logger: Logger,
    /** Rendered prompts larger than this (the server's reply limit) are refused as a server bug. */
    private readonly maxResultBytes: number,
    /** Completions running at once in the server, and waiting; one more is refused (-32000, retry). */
    completionLimits: { maxRunning: number; maxQueued: number } = { maxRunning: 8, maxQueued: 32 },
  ) {
    this.completing = new CallLimiter(
      completionLimits.maxRunning,
      completionLimits.maxQueued,
      'the server',
      'completions',
    );
    const byName = new Map<string, McpPrompt>();
    for (const prompt of prompts) {
      const { name, arguments: args } = prompt.definition;
      if (byName.has(name)) throw new Error(`Two prompts are named '${name}'.`);
      if (new Set(args.map((argument) => argument.name)).size !== args.length) {
        throw new Error(`Prompt '${name}' names an argument twice.`);
      }
      byName.set(name, prompt);
    }
    this.byName = byName;
    this.listing = prompts.map(({ definition }) => ({
      name: definition.name,
      title: definition.title,
      description: definition.description,
      arguments: definition.arguments.map((argument) => ({
        name: argument.name,
        description: argument.description,
        required: argument.required === true,
      })),
    }));
    this.completable = prompts.some((prompt) =>
      prompt.definition.arguments.some((argument) => argument.complete !== undefined),
    );
  }

  /** `prompts/get`: -32602 naming the prompt or argument for anything the client got wrong. */
  async render(name: unknown, rawArguments: unknown, ctx: PromptContext): Promise<RenderedPrompt> {
    const prompt = this.prompt(name);
    const { definition } = prompt;
    const args = stringArguments(rawArguments, `prompt '${definition.name}'`);
    const known = new Set(definition.arguments.map((argument) => argument.name));
    const unknown = Object.keys(args).find((argument) => !known.has(argument));
    if (unknown !== undefined) {
      throw invalidParams(
        `Prompt '${definition.name}' has no argument '${clip(unknown)}'; it takes ${namesOf(definition.arguments)}.`,
      );
    }
    const missing = definition.arguments.find(
      (argument) => argument.required === true && (args[argument.name] ?? '') === '',
    );
    if (missing !== undefined) {
      throw invalidParams(
        `Prompt '${definition.name}' needs the argument '${missing.name}': ${missing.description}`,
      );
    }
    let messages: Awaited<ReturnType<McpPrompt['render']>>;
    try {
      messages = await prompt.render(args, ctx);
    } catch (error) {
      throw this.failure(`Prompt '${definition.name}'`, error, args);
    }
    const rendered: RenderedPrompt = {
      description: definition.description,
      messages: messages.map((message) => ({
        role: message.role,
        // The client's arguments are echoed into the text: a credential among them is masked, as in any
        // tool result or error (the rendered prompt goes to a model and into transcripts).
        content: { type: 'text', text: maskSecrets(message.text) },
      })),
    };
    const bytes = Buffer.byteLength(JSON.stringify(rendered));
    if (bytes > this.maxResultBytes) {
      this.logger.error({ prompt: definition.name, bytes }, 'rendered prompt exceeds the reply limit');
      throw new RpcError(
        RpcErrorCode.InternalError,
        `Prompt '${definition.name}' rendered ${bytes} bytes, over this server's reply limit.`,
      );
    }
    return rendered;
  }

  /**
   * `completion/complete` for `ref/prompt` (this server has no resource templates). At most 100 values;
   * a completer's expected failure (a DomainError: the file named in context is missing…) offers nothing.
   */
  async complete(params: unknown, ctx: CompletionContext): Promise<CompletionResult> {
    const { ref, argument, context } = (params ?? {}) as Record<string, unknown>;
    const reference = (ref ?? {}) as Record<string, unknown>;
    if (reference.type !== 'ref/prompt') {
      const what =
        reference.type === 'ref/resource'
          ? `resource template '${clip(String(reference.uri))}'`
          : 'reference';
      throw invalidParams(`Unknown ${what}: this server completes prompt arguments only (ref/prompt).`);
    }
    const prompt = this.prompt(reference.name);
    const { name: argumentName, value } = (argument ?? {}) as Record<string, unknown>;
    const declared = prompt.definition.arguments.find((candidate) => candidate.name === argumentName);
    if (declared === undefined) {
      throw invalidParams(
        `Prompt '${prompt.definition.name}' has no argument '${clip(String(argumentName))}'; it takes ${namesOf(prompt.definition.arguments)}.`,
      );
    }
    if (typeof value !== 'string' || value.length > PROMPT_LIMITS.maxValueChars) {
      throw invalidParams(
        `Invalid argument.value for '${declared.name}': expected a string of at most ${PROMPT_LIMITS.maxValueChars} characters.`,
      );
    }
    const others = stringArguments(
      (context as Record<string, unknown> | undefined)?.arguments,
      `the context of prompt '${prompt.definition.name}'`,
    );
    if (declared.complete === undefined) return { completion: { values: [], hasMore: false } };
    let completion: Completion;
    const release = await this.completing.acquire(ctx.signal);
    try {
      completion = await declared.complete({ value, arguments: others }, ctx);
    } catch (error) {
      if (error instanceof DomainError) return { completion: { values: [], hasMore: false } };
      throw this.failure(
        `Completing '${declared.name}' of prompt '${prompt.definition.name}'`,
        error,
        others,
      );
    } finally {
      release();
    }
    return { completion: bounded(completion) };
  }

  private prompt(name: unknown): McpPrompt {
    const prompt = typeof name === 'string' ? this.byName.get(name) : undefined;
    if (prompt !== undefined) return prompt;
    const shown = typeof name === 'string' ? `'${clip(name)}'` : 'without a name';
    const offered =
      this.listing.length === 0
        ? 'this server has none'
        : `its prompts are ${this.listing.map((p) => `'${p.name}'`).join(', ')}`;
    throw invalidParams(`Unknown prompt ${shown}; ${offered}.`, {
      name: typeof name === 'string' ? clip(name) : null,
    });
  }

  /** An expected failure keeps its message (masked) as -32602; anything else is logged and reported as -32603. */
  private failure(what: string, error: unknown, sentByClient: unknown): RpcError {
    if (error instanceof DomainError) return invalidParams(maskForClient(error.message, sentByClient));
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.logger.error({ what, error: maskSecrets(message) }, 'prompt or completion failed');
    return new RpcError(RpcErrorCode.InternalError, `${what} failed; the server's log has the details.`);
  }
}

/** Prompt arguments as MCP sends them: an object of strings (absent: none). */
function stringArguments(raw: unknown, where: string): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw invalidParams(`The arguments of ${where} must be an object of strings.`);
  const entries = Object.entries(raw);
  if (entries.length > PROMPT_LIMITS.maxArguments) {
    throw invalidParams(
      `The arguments of ${where} are too many (${entries.length}; at most ${PROMPT_LIMITS.maxArguments}).`,
    );
  }
  for (const [name, value] of entries) {
    if (typeof value !== 'string') {
      throw invalidParams(
        `Invalid argument '${clip(name)}' of ${where}: expected a string, got ${value === null ? 'null' : typeof value}.`,
      );
    }
    if (value.length > PROMPT_LIMITS.maxValueChars) {
      throw invalidParams(
        `Invalid argument '${clip(name)}' of ${where}: longer than ${PROMPT_LIMITS.maxValueChars} characters.`,
      );
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/** At most 100 distinct string values of bounded length; `hasMore` and `total` say what was cut. */
function bounded(completion: Completion): CompletionResult['completion'] {
  const offered = Array.isArray(completion.values) ? completion.values : [];
  const values = [
    ...new Set(
      offered.filter(
        (value): value is string =>
          typeof value === 'string' && value.length <= PROMPT_LIMITS.maxCompletionValueChars,
      ),
    ),
  ];
  // Nothing offered can be sent (e.g. a list argument whose earlier entries already fill the length):
  // then there is no "more" either, whatever total the completer counted.
  if (offered.length > 0 && values.length === 0) return { values: [], hasMore: false };
  const cut = values.length > MAX_COMPLETION_VALUES;
  const total =
    typeof completion.total === 'number' &&
    Number.isSafeInteger(completion.total) &&
    completion.total >= values.length
      ? completion.total
      : cut
        ? values.length
        : undefined;
  const shown = values.slice(0, MAX_COMPLETION_VALUES);
  return {
    values: shown,
    ...(total === undefined ? {} : { total }),
    hasMore: cut || completion.hasMore === true || (total !== undefined && total > shown.length),
  };
}

function namesOf(args: readonly { name: string }[]): string {
  return args.length === 0 ? 'no arguments' : args.map((argument) => `'${argument.name}'`).join(', ');
}

function clip(text: string): string {
  return maskSecrets(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

/** What promptsOf needs of a ServerApp (named structurally: serverApp.ts imports this module). */
interface AppWithPrompts {
  prompts?: PromptCatalog;
  logger: Logger;
  limits: { maxResultBytes: number };
}

const emptyCatalogs = new WeakMap<AppWithPrompts, PromptCatalog>();

/** The app's prompts; an app built without any (tests, fixtures) answers with an empty list. */
export function promptsOf(app: AppWithPrompts): PromptCatalog {
  if (app.prompts !== undefined) return app.prompts;
  let empty = emptyCatalogs.get(app);
  if (empty === undefined) {
    empty = new PromptCatalog([], app.logger, app.limits.maxResultBytes);
    emptyCatalogs.set(app, empty);
  }
  return empty;
}

function invalidParams(message: string, data?: unknown): RpcError {
  return new RpcError(RpcErrorCode.InvalidParams, message, data);
}
