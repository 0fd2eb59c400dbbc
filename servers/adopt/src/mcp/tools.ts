// The tools groundwork-adopt serves.
import type { McpTool } from '@groundwork/mcp-common';
import { adoptRepoTool } from './adoptRepoTool.js';
import { doctorTool } from './doctorTool.js';
import { verifyRepoTool } from './verifyRepoTool.js';

export const adoptTools: readonly McpTool[] = [verifyRepoTool, doctorTool, adoptRepoTool];
