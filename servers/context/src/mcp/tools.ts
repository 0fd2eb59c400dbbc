import type { McpTool } from '@groundwork/mcp-common';
import { changeImpactTool } from './changeImpactTool.js';
import { contextBundleTool } from './contextBundleTool.js';
import { estimateTokensTool } from './estimateTokensTool.js';
import { findContextTool } from './findContextTool.js';
import { projectTreeTool } from './projectTreeTool.js';
import { symbolsTool } from './symbolsTool.js';

export const contextTools: McpTool[] = [
  projectTreeTool,
  findContextTool,
  estimateTokensTool,
  contextBundleTool,
  symbolsTool,
  changeImpactTool,
];
