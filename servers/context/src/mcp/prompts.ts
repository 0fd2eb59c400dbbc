// The prompts groundwork-context serves: one per workflow of its skills (servers/context/skills).
import type { McpPrompt } from '@groundwork/mcp-common';
import { assessEditImpactPrompt } from './assessEditImpactPrompt.js';
import { prepareEditContextPrompt } from './prepareEditContextPrompt.js';
import { whatToTestPrompt } from './whatToTestPrompt.js';

export const contextPrompts: readonly McpPrompt[] = [
  prepareEditContextPrompt,
  assessEditImpactPrompt,
  whatToTestPrompt,
];
