import type { McpPrompt } from '@groundwork/mcp-common';
import { checkJoinPrompt } from './checkJoinPrompt.js';
import { checkKeyUniquePrompt } from './checkKeyUniquePrompt.js';
import { findTableKeyPrompt } from './findTableKeyPrompt.js';
import { profileADatasetPrompt } from './profileADatasetPrompt.js';

/** The workflows of the server's skills (skills/), as prompts with completable arguments. */
export const dataPrompts: readonly McpPrompt[] = [
  findTableKeyPrompt,
  checkKeyUniquePrompt,
  profileADatasetPrompt,
  checkJoinPrompt,
];
