import type { McpTool } from '@groundwork/mcp-common';
import { buildCacheExplainTool } from './buildCacheExplainTool.js';
import { buildDependenciesTool } from './buildDependenciesTool.js';
import { buildHealthTool } from './buildHealthTool.js';
import { buildLogTool } from './buildLogTool.js';
import { buildRunTool } from './buildRunTool.js';
import { buildWhyTool } from './buildWhyTool.js';
import { buildWorkspaceTool } from './buildWorkspaceTool.js';

export const buildTools: readonly McpTool[] = [
  buildWorkspaceTool,
  buildDependenciesTool,
  buildWhyTool,
  buildHealthTool,
  buildRunTool,
  buildLogTool,
  buildCacheExplainTool,
];
