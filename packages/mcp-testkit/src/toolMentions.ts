// Checks the tool calls a skill or a rendered prompt tells a model to make ("call `find_context` with
// `{"path": …}`") against the server's real tools, so a renamed tool or argument cannot leave the
// workflows a server ships pointing at nothing.
import { readdirSync, readFileSync } from 'node:fs';
import type { McpPrompt, McpTool } from '@groundwork/mcp-common';

interface ToolMention {
  tool: string;
  /** The argument object as written (JSON, or JSON with placeholders such as `P` in a skill). */
  argumentsText: string;
}

const MENTION = /`([a-z][a-z0-9_]*)` with\s+`(\{[^`]*\})`/g;

/** Every "`tool` with `{…}`" in `text`, in order. */
export function toolMentions(text: string): ToolMention[] {
  return [...text.matchAll(MENTION)].map((match) => ({
    tool: match[1] as string,
    argumentsText: match[2] as string,
  }));
}

/**
 * The calls a rendered prompt asks for, arguments parsed. A rendered prompt writes plain JSON (a skill may
 * use placeholders, so this is for prompts): a mention whose arguments are not JSON throws.
 */
export function toolCalls(text: string): Array<{ tool: string; args: Record<string, unknown> }> {
  return toolMentions(text).map(({ tool, argumentsText }) => ({
    tool,
    args: JSON.parse(argumentsText) as Record<string, unknown>,
  }));
}

/**
 * What is wrong with the tool calls `text` mentions: a tool the server does not have, an argument the tool
 * does not take, and — where the arguments are plain JSON — a value its input schema refuses.
 */
export function toolMentionProblems(text: string, tools: readonly McpTool[]): string[] {
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool.definition]));
  return toolMentions(text).flatMap(({ tool, argumentsText }) => {
    const definition = byName.get(tool);
    if (definition === undefined)
      return [`no tool '${tool}' (the server has ${[...byName.keys()].join(', ')})`];
    const known = new Set(Object.keys(definition.input.shape));
    let parsed: unknown;
    try {
      parsed = JSON.parse(argumentsText);
    } catch {
      // Not plain JSON (a skill's placeholders): every key written counts, nested ones included.
      const keys = [...argumentsText.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)"\s*:/g)].map(
        (match) => match[1] as string,
      );
      return keys.filter((key) => !known.has(key)).map((key) => `${tool}: no argument '${key}'`);
    }
    // Plain JSON: its top-level keys are the arguments (a nested object is one argument's value).
    const keys = typeof parsed === 'object' && parsed !== null ? Object.keys(parsed) : [];
    const problems = keys.filter((key) => !known.has(key)).map((key) => `${tool}: no argument '${key}'`);
    const checked = definition.input.safeParse(parsed);
    if (!checked.success) {
      problems.push(...checked.error.issues.map((issue) => `${tool} ${argumentsText}: ${issue.message}`));
    }
    return problems;
  });
}

export interface ShippedWorkflows {
  /** The server's `skills/` folder (one `<skill>/SKILL.md` each). */
  skillsDir: URL;
  tools: readonly McpTool[];
  prompts: readonly McpPrompt[];
  /** Whether every tool must be called by some skill (a server whose skills cover all its tools). */
  everyToolCalled?: boolean;
}

/**
 * What is wrong with the skills a server ships, read from its package folder: each skill has a prompt of
 * its name, calls at least one tool (a skill with none would pass the mention check vacuously), and names
 * only real tools with arguments they take.
 */
export function shippedWorkflowProblems(workflows: ShippedWorkflows): string[] {
  const skills = readdirSync(workflows.skillsDir).sort();
  const promptNames = new Set(workflows.prompts.map((prompt) => prompt.definition.name));
  const called = new Set<string>();
  const problems = skills.flatMap((skill) => {
    const body = readFileSync(new URL(`${skill}/SKILL.md`, workflows.skillsDir), 'utf8');
    const mentions = toolMentions(body);
    for (const mention of mentions) called.add(mention.tool);
    return [
      ...(promptNames.has(skill) ? [] : [`${skill}: no prompt of the same name`]),
      ...(mentions.length > 0 ? [] : [`${skill}: calls no tool`]),
      ...toolMentionProblems(body, workflows.tools).map((problem) => `${skill}: ${problem}`),
    ];
  });
  if (workflows.everyToolCalled) {
    for (const tool of workflows.tools)
      if (!called.has(tool.definition.name)) problems.push(`no skill calls ${tool.definition.name}`);
  }
  return problems;
}
