// The `agents` argument adopt_repo and session_cost share: agent names, as an array or a comma-separated string.
import { InvalidArgumentError, stringList } from '@groundwork/mcp-common';
import { AGENT_NAMES, type AgentName } from '../core/adopt/agentPointers.js';

export function agentsArgument(description: string) {
  return stringList(description).optional();
}

/** The names given, checked against AGENT_NAMES (an unknown one is refused, naming the argument). */
export function parseAgents(given: readonly string[] | undefined): AgentName[] | undefined {
  if (given === undefined) return undefined;
  const unknown = given.find((agent) => !(AGENT_NAMES as readonly string[]).includes(agent));
  if (unknown !== undefined)
    throw new InvalidArgumentError(
      'agents',
      `unknown agent ${JSON.stringify(unknown.slice(0, 40))}; use ${AGENT_NAMES.join(', ')}.`,
    );
  return [...new Set(given)] as AgentName[];
}
