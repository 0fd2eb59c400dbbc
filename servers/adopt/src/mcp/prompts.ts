// The prompts groundwork-adopt serves: one per workflow of its skills (servers/adopt/skills).
import type { McpPrompt } from '@groundwork/mcp-common';
import { fixAgentConfigPrompt } from './fixAgentConfigPrompt.js';
import { makeRepoAgentReadyPrompt } from './makeRepoAgentReadyPrompt.js';

export const adoptPrompts: readonly McpPrompt[] = [makeRepoAgentReadyPrompt, fixAgentConfigPrompt];
