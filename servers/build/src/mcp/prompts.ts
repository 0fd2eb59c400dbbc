// The prompts groundwork-build serves: one per workflow of its skills (servers/build/skills).
import type { McpPrompt } from '@groundwork/mcp-common';
import { explainBuildPrompt } from './explainBuildPrompt.js';
import { explainCacheMissPrompt } from './explainCacheMissPrompt.js';

export const buildPrompts: readonly McpPrompt[] = [explainBuildPrompt, explainCacheMissPrompt];
