// Turns McpTools into the protocol's tools/list entries (built once) and runs calls: argument parsing,
// output validation and failure masking happen here, once, for every tool.
import { z } from 'zod';
import {
  type AnswerBudget,
  budgetArgumentOf,
  budgetOfArguments,
  largestAnswerChars,
  MAX_ERROR_CHARS,
  MAX_RESULT_SIZE_META,
  type TextBlock,
} from '../answers/answerBudget.js';
import { answerFits } from '../answers/fitList.js';
import { countTokens, vocabularyProblem } from '../answers/tokenCount.js';
import { DomainError } from '../domainError.js';
import type { Logger } from '../logger.js';
import { maskForClient, maskSecrets, maskValue } from '../masking/masking.js';
import { builtListing } from './builtListing.js';
import type { McpTool, ToolContext } from './tool.js';
import { jsonSchemaOverride, parseArguments } from './toolArguments.js';
import { ToolError } from './toolError.js';

interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: Record<string, unknown>;
  /** Present for tools a client may run as a task (2025-11-25 `execution.taskSupport`). */
  execution?: { taskSupport: 'optional' };
  /** For tools a caller may ask more of (`max_tokens`): the characters Claude Code should keep inline. */
  _meta?: { [MAX_RESULT_SIZE_META]: number };
}

export interface CallOutcome {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

interface CallOptions {
  /** The client reads `structuredContent` (protocol 2025-06-18 or later). */
  structuredOutput: boolean;
}

/** What a call's context holds before the registry adds the answer budget its arguments ask for. */
export type CallContext = Omit<ToolContext, 'answer'>;

export class UnknownToolError extends ToolError {
  constructor(name: string, known: readonly string[]) {
    super('UNKNOWN_TOOL', `Unknown tool '${name}'; this server has: ${known.join(', ')}.`);
  }
}

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

export class ToolRegistry {
  private readonly tools: ReadonlyMap<string, McpTool>;
  private built: readonly ToolListing[] | undefined;
  private vocabularyLogged = false;

  constructor(
    tools: readonly McpTool[],
    private readonly logger: Logger,
    private readonly textBlock: TextBlock = 'json',
  ) {
    const byName = new Map<string, McpTool>();
    for (const tool of tools) {
      const { name } = tool.definition;
      if (!SNAKE_CASE.test(name)) throw new Error(`Tool name '${name}' must be snake_case`);
      if (byName.has(name)) throw new Error(`Two tools are named '${name}'`);
      byName.set(name, tool);
    }
    this.tools = byName;
  }

  /**
   * The tools as `tools/list` shows them. Turning zod schemas into JSON Schema is the costliest step of a
   * start, and no answer to `initialize` needs it, so it happens on first use, and in a built server not
   * at all: its build wrote the result (builtListing.ts).
   */
  get listing(): readonly ToolListing[] {
    this.built ??=
      builtListing<ToolListing>(this.names) ?? [...this.tools.values()].map((tool) => listingOf(tool));
    return this.built;
  }

  get names(): string[] {
    return [...this.tools.keys()];
  }

  /** Whether the tool may run as a task; undefined for a tool this registry does not have. */
  taskSupport(name: string): 'forbidden' | 'optional' | undefined {
    const tool = this.tools.get(name);
    return tool === undefined ? undefined : (tool.definition.taskSupport ?? 'forbidden');
  }

  /**
   * Throws UnknownToolError for a name it does not know; every other failure is an error outcome. A
   * result over `ctx.maxResultBytes` is replaced by a bounded error saying `truncated: true`.
   */
  async call(
    name: string,
    rawArguments: unknown,
    callContext: CallContext,
    options: CallOptions = { structuredOutput: false },
  ): Promise<CallOutcome> {
    const tool = this.tools.get(name);
    if (tool === undefined) throw new UnknownToolError(name, this.names);
    const parsed = parseArguments(tool.definition.input, rawArguments);
    if (!parsed.ok) return errorOutcome(maskForClient(parsed.message, rawArguments));
    const { input, budgetArgument } = tool.definition;
    const output = tool.definition.output;
    // The last answer `render` checked: the value a tool returns is most often that very page (fitList's), and
    // is then not checked and stringified again.
    let rendered: Rendered | undefined;
    const render = (value: unknown): string | undefined => {
      const checked = output === undefined ? undefined : renderedAnswer(output, value);
      if (checked !== undefined) rendered = checked;
      return checked?.json;
    };
    const answer = {
      ...budgetOfArguments(parsed.value, budgetArgumentOf(input, budgetArgument)),
      ...(output === undefined ? {} : { render }),
    };
    const ctx: ToolContext = { ...callContext, answer };
    // Measuring the answer is inside too: whatever fails, the client gets the one error answer, never a raw error.
    try {
      const result = await tool.apply(parsed.value, ctx);
      if (result.kind === 'error') return errorOutcome(maskForClient(result.message, rawArguments));
      const reused = rendered?.value === result.value ? rendered : undefined;
      const { outcome, json } = this.successOutcome(tool, result.value, options, reused);
      // Measured on the whole answer, as a client that reads only `content` gets it (in summary mode too).
      const fits = await answerFits(json, answer);
      this.logVocabularyProblem();
      if (!fits) return await overBudgetOutcome(tool, json, answer);
      const bytes = outcomeBytes(outcome, json);
      return bytes <= ctx.maxResultBytes ? outcome : tooLargeOutcome(tool, bytes, ctx.maxResultBytes);
    } catch (error) {
      return this.failureOutcome(tool, rawArguments, error);
    }
  }

  /** Says once that answers are measured in bytes because the token vocabulary could not be read. */
  private logVocabularyProblem(): void {
    const problem = vocabularyProblem();
    if (problem === undefined || this.vocabularyLogged) return;
    this.vocabularyLogged = true;
    this.logger.warn(
      { error: maskSecrets(problem) },
      "token vocabulary unreadable (gpt-tokenizer's data/o200k_base.tiktoken): answers are measured as UTF-8 bytes, an upper bound, so lists come in smaller pages",
    );
  }

  /**
   * The outcome of a tool's value, and the whole answer's JSON (the text block unless it is a summary).
   * `rendered` is the value's own check by `render`, when it had one: zod's parse returned a copy, so what it
   * checked is what is sent, even if the tool changed its value after.
   */
  private successOutcome(
    tool: McpTool,
    value: unknown,
    options: CallOptions,
    rendered: Rendered | undefined,
  ): { outcome: CallOutcome; json: string } {
    const { output, name } = tool.definition;
    if (output === undefined) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return { outcome: { content: [{ type: 'text', text }] }, json: text };
    }
    const checked = rendered ?? renderedAnswer(output, value);
    if (checked === undefined) {
      const issues = output.safeParse(value).error?.issues;
      this.logger.error({ tool: name, issues }, 'tool result does not match its output schema');
      const outcome = errorOutcome(
        `Tool '${name}' produced a result that does not match its output schema (a server bug).`,
      );
      return { outcome, json: outcome.content[0]?.text ?? '' };
    }
    const { structured, json } = checked;
    const text =
      options.structuredOutput && this.textBlock === 'summary' ? summaryOf(structured, json) : json;
    return { outcome: { content: [{ type: 'text', text }], structuredContent: structured }, json };
  }

  private failureOutcome(tool: McpTool, rawArguments: unknown, error: unknown): CallOutcome {
    const name = tool.definition.name;
    if (error instanceof DomainError) return errorOutcome(maskForClient(error.message, rawArguments));
    if (isAbort(error)) return errorOutcome(`Tool '${name}' was cancelled.`);
    const message = error instanceof Error ? error.message : String(error);
    this.logger.error(
      {
        tool: name,
        arguments: maskValue(rawArguments),
        error: maskSecrets(error instanceof Error ? (error.stack ?? message) : message),
      },
      'tool failed',
    );
    return errorOutcome(`Tool '${name}' failed: ${maskForClient(message)}`);
  }
}

// Argument names that ask for less: offered as the way to page when a result is too large.
const NARROWING_ARGUMENT = /limit|max|top|offset|cursor|page|budget|depth|columns|files|path/;

function tooLargeOutcome(tool: McpTool, bytes: number, limit: number): CallOutcome {
  const { name, input } = tool.definition;
  const narrowing = Object.keys(input.shape).filter((argument) => NARROWING_ARGUMENT.test(argument));
  const how =
    narrowing.length > 0
      ? `Ask for less: narrow the call with ${narrowing.map((argument) => `'${argument}'`).join(', ')}.`
      : 'Ask for less: narrow the call to a smaller input.';
  const answer = {
    truncated: true,
    result_bytes: bytes,
    max_result_bytes: limit,
    message: `The result of '${name}' (${bytes} bytes) exceeds this server's reply limit of ${limit} bytes (--max-result-bytes, GROUNDWORK_MAX_RESULT_BYTES), so it was not sent. ${how}`,
  };
  return errorOutcome(JSON.stringify(answer));
}

/**
 * A tool that did not fit its answer to `ctx.answer` (it should, with fitList): the answer is not sent, since
 * a client would refuse it or set it aside, and the caller is told how to ask for less.
 */
async function overBudgetOutcome(tool: McpTool, text: string, budget: AnswerBudget): Promise<CallOutcome> {
  const { name, input, budgetArgument } = tool.definition;
  const argument = budgetArgumentOf(input, budgetArgument);
  const narrowing = Object.keys(input.shape).filter(
    (key) => key !== argument && NARROWING_ARGUMENT.test(key),
  );
  const how = [
    ...(narrowing.length > 0
      ? [`narrow the call with ${narrowing.map((key) => `'${key}'`).join(', ')}`]
      : []),
    ...(argument === undefined ? [] : [`raise '${argument}'`]),
  ];
  const answer = {
    truncated: true,
    answer_chars: text.length,
    answer_tokens: await countTokens(text),
    max_tokens: budget.maxTokens,
    max_chars: budget.maxChars,
    message: `The answer of '${name}' exceeds this call's budget of ${budget.maxTokens} tokens and ${budget.maxChars} characters, so it was not sent. ${how.length > 0 ? `Ask for less: ${how.join(', or ')}.` : 'Ask for less: narrow the call to a smaller input.'}`,
  };
  return errorOutcome(JSON.stringify(answer));
}

/** A short text for the text block when the full value travels as `structuredContent`. */
function summaryOf(value: Record<string, unknown>, json: string): string {
  if (json.length <= SUMMARY_CHARS) return json;
  const parts = Object.entries(value).map(([key, field]) => {
    if (Array.isArray(field)) return `${key}: ${field.length} item${field.length === 1 ? '' : 's'}`;
    if (typeof field === 'object' && field !== null) return `${key}: {${Object.keys(field).join(', ')}}`;
    const shown = JSON.stringify(field);
    return `${key}: ${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown}`;
  });
  const summary = parts.join('; ');
  return `Result in structuredContent (${json.length} characters of JSON). ${summary.length > SUMMARY_CHARS ? `${summary.slice(0, SUMMARY_CHARS - 3)}...` : summary}`;
}

const SUMMARY_CHARS = 1000;

/**
 * `value` with every null field left out, at any depth. What holds no null is returned as it is (not copied):
 * an answer's long lists of strings and objects without nulls cost nothing (a cold project_tree of 600 files
 * spent 30 ms copying them).
 */
function withoutNullFields(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const kept = withoutNullFields(item);
      if (kept === item) continue;
      copy ??= value.slice();
      copy[index] = kept;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let at = 0; at < keys.length; at++) {
    const field = record[keys[at] as string];
    const kept = withoutNullFields(field);
    if (field !== null && kept === field) continue;
    // Something below changes: the object is copied from here on (keys in their order, nulls left out).
    const copy: Record<string, unknown> = {};
    for (let before = 0; before < keys.length; before++) {
      const key = keys[before] as string;
      const item = before < at ? record[key] : before === at ? kept : withoutNullFields(record[key]);
      if (item !== null)
        Object.defineProperty(copy, key, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return copy;
  }
  return value;
}

/** The structured content of an answer that passed its output schema. */
function structuredOf(parsed: unknown): Record<string, unknown> {
  // Nulls are sent as absent fields: the listed schema gives each field one type (see portableSchema).
  return withoutNullFields(parsed) as Record<string, unknown>;
}

/** A value that passed its output schema: what was checked, and the answer's structured content and its JSON. */
interface Rendered {
  value: unknown;
  structured: Record<string, unknown>;
  json: string;
}

/**
 * The answer a client gets for `value` (`ctx.answer.render` gives its JSON): the same steps as the answer
 * itself, so the text fitList measured is the text measured here; undefined for a value the schema refuses.
 */
function renderedAnswer(output: z.ZodType, value: unknown): Rendered | undefined {
  const checked = output.safeParse(value);
  if (!checked.success) return undefined;
  const structured = structuredOf(checked.data);
  return { value, structured, json: JSON.stringify(structured) };
}

/**
 * `Buffer.byteLength(JSON.stringify(outcome))` for an outcome whose answer's JSON is `json`, without
 * stringifying the answer's value again: the outcome's JSON is a fixed frame around the text block as a JSON
 * string and the structured content's JSON, which is `json`. (Stringifying a string is V8's quick path: the
 * 130 KB text of 1,000 files in ≈ 1 ms, half of the whole outcome's.)
 */
function outcomeBytes(outcome: CallOutcome, json: string): number {
  if (outcome.structuredContent === undefined) return Buffer.byteLength(JSON.stringify(outcome));
  const text = outcome.content[0]?.text ?? '';
  return OUTCOME_FRAME_BYTES + Buffer.byteLength(JSON.stringify(text)) + Buffer.byteLength(json);
}

/** `{"content":[{"type":"text","text":…}],"structuredContent":…}` without its two parts. */
const OUTCOME_FRAME_BYTES =
  JSON.stringify({ content: [{ type: 'text', text: '' }], structuredContent: 0 }).length - '""0'.length;

/** An error answer; its text cut below what clients keep of an error (Claude Code: about 11,000 characters). */
function errorOutcome(text: string): CallOutcome {
  const kept =
    text.length <= MAX_ERROR_CHARS
      ? text
      : `${text.slice(0, MAX_ERROR_CHARS - 40)}… [cut: ${text.length} characters]`;
  return { content: [{ type: 'text', text: kept }], isError: true };
}

function isAbort(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR')
  );
}

function listingOf(tool: McpTool): ToolListing {
  const { name, title, description, input, output, annotations } = tool.definition;
  return {
    name,
    title,
    description,
    inputSchema: jsonSchemaOf(input, 'input'),
    ...(output === undefined ? {} : { outputSchema: jsonSchemaOf(output, 'output') }),
    annotations: { title, ...annotations },
    ...(tool.definition.taskSupport === 'optional'
      ? { execution: { taskSupport: 'optional' as const } }
      : {}),
    ...metaOf(tool),
  };
}

/** A tool whose caller may ask for more than the default answer says how much Claude Code should keep inline. */
function metaOf(tool: McpTool): Pick<ToolListing, '_meta'> {
  const { input, budgetArgument } = tool.definition;
  const argument = budgetArgumentOf(input, budgetArgument);
  return argument === undefined
    ? {}
    : { _meta: { [MAX_RESULT_SIZE_META]: largestAnswerChars(input, argument) } };
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: jsonSchemaOverride,
  }) as Record<string, unknown>;
  // Unknown arguments are refused (parseArguments), so the listing says so.
  if (io === 'input') jsonSchema.additionalProperties = false;
  return portableSchema(jsonSchema) as Record<string, unknown>;
}

/**
 * Gives every property one `type`, as strict clients require: a nullable property (`type: [X, "null"]` or
 * `anyOf: [X, {type: "null"}]`) becomes X and is no longer required; its null is sent as an absent field.
 */
function portableSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portableSchema);
  if (typeof node !== 'object' || node === null) return node;
  const schema = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, portableSchema(value)]),
  ) as Record<string, unknown>;
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (properties === undefined) return schema;
  const nullable = Object.keys(properties).filter((key) => nonNull(properties[key]) !== undefined);
  for (const key of nullable) properties[key] = nonNull(properties[key]) as Record<string, unknown>;
  if (Array.isArray(schema.required)) {
    schema.required = schema.required.filter((key) => !nullable.includes(key as string));
  }
  return schema;
}

/** The schema without its null alternative, or undefined when it does not allow null (or allows more). */
function nonNull(schema: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (schema === undefined) return undefined;
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const rest = schema.type.filter((type) => type !== 'null');
    return rest.length === 1 ? { ...schema, type: rest[0] } : undefined;
  }
  const anyOf = schema.anyOf as Array<Record<string, unknown>> | undefined;
  if (anyOf?.some((member) => member.type === 'null')) {
    const rest = anyOf.filter((member) => member.type !== 'null');
    if (rest.length !== 1) return undefined;
    const { anyOf: _alternatives, ...outer } = schema;
    return { ...rest[0], ...outer };
  }
  return undefined;
}
