import type { McpPrompt } from '@groundwork/mcp-common';
import { explainFailurePrompt } from './explainFailurePrompt.js';
import { findFlakyTestsPrompt } from './findFlakyTestsPrompt.js';
import { findSuspectCommitsPrompt } from './findSuspectCommitsPrompt.js';
import { triageRedCiRunPrompt } from './triageRedCiRunPrompt.js';

/** The workflows of the server's skills (skills/), as prompts with completable arguments. */
export const testReportPrompts: readonly McpPrompt[] = [
  triageRedCiRunPrompt,
  explainFailurePrompt,
  findFlakyTestsPrompt,
  findSuspectCommitsPrompt,
];
