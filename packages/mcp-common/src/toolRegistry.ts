// Turns McpTools into the protocol's tools/list entries (built once) and runs calls: argument parsing,
// output validation and failure masking happen here, once, for every tool.
import { z } from 'zod';
import type { Logger } from './logger.js';
import { maskForClient, maskSecrets, maskValue } from './masking.js';
import type { McpTool, ToolContext } from './tool.js';
import { parseArguments } from './toolArguments.js';
import { ToolError } from './toolError.js';

export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: Record<string, unknown>;
}

export interface CallOutcome {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

export class UnknownToolError extends ToolError {
  constructor(name: string, known: readonly string[]) {
    super('UNKNOWN_TOOL', `Unknown tool '${name}'; this server has: ${known.join(', ')}.`);
  }
}

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

export class ToolRegistry {
  readonly listing: readonly ToolListing[];
  private readonly tools: ReadonlyMap<string, McpTool>;

  constructor(
    tools: readonly McpTool[],
    private readonly logger: Logger,
  ) {
    const byName = new Map<string, McpTool>();
    for (const tool of tools) {
      const { name } = tool.definition;
      if (!SNAKE_CASE.test(name)) throw new Error(`Tool name '${name}' must be snake_case`);
      if (byName.has(name)) throw new Error(`Two tools are named '${name}'`);
      byName.set(name, tool);
    }
    this.tools = byName;
    this.listing = tools.map((tool) => listingOf(tool));
  }

  get names(): string[] {
    return [...this.tools.keys()];
  }

  /** Throws UnknownToolError for a name it does not know; every other failure is an error outcome. */
  async call(name: string, rawArguments: unknown, ctx: ToolContext): Promise<CallOutcome> {
    const tool = this.tools.get(name);
    if (tool === undefined) throw new UnknownToolError(name, this.names);
    const parsed = parseArguments(tool.definition.input, rawArguments);
    if (!parsed.ok) return errorOutcome(maskForClient(parsed.message, rawArguments));
    try {
      const result = await tool.apply(parsed.value, ctx);
      if (result.kind === 'error') return errorOutcome(maskForClient(result.message, rawArguments));
      return this.successOutcome(tool, result.value);
    } catch (error) {
      return this.failureOutcome(tool, rawArguments, error);
    }
  }

  private successOutcome(tool: McpTool, value: unknown): CallOutcome {
    const { output, name } = tool.definition;
    if (output === undefined) {
      return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
    }
    const checked = output.safeParse(value);
    if (!checked.success) {
      this.logger.error(
        { tool: name, issues: checked.error.issues },
        'tool result does not match its output schema',
      );
      return errorOutcome(
        `Tool '${name}' produced a result that does not match its output schema (a server bug).`,
      );
    }
    const structured = checked.data as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  }

  private failureOutcome(tool: McpTool, rawArguments: unknown, error: unknown): CallOutcome {
    const name = tool.definition.name;
    if (error instanceof ToolError) return errorOutcome(maskForClient(error.message, rawArguments));
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

function errorOutcome(text: string): CallOutcome {
  return { content: [{ type: 'text', text }], isError: true };
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
  };
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return jsonSchema;
}
