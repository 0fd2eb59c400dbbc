import type { McpTool } from '@groundwork/mcp-common';
import { findDuplicatesTool } from './findDuplicatesTool.js';
import { findKeysTool } from './findKeysTool.js';
import { joinCheckTool } from './joinCheckTool.js';
import { keyChecksTool } from './keyChecksTool.js';
import { profileColumnsTool } from './profileColumnsTool.js';
import { uniquenessCheckTool } from './uniquenessCheckTool.js';

export const dataTools: readonly McpTool[] = [
  uniquenessCheckTool,
  findDuplicatesTool,
  findKeysTool,
  profileColumnsTool,
  joinCheckTool,
  keyChecksTool,
];
