import type { McpTool } from '@groundwork/mcp-common';
import { compareRunsTool } from './compareRunsTool.js';
import { exportCtrfTool } from './exportCtrfTool.js';
import { failureClustersTool } from './failureClustersTool.js';
import { failureContextTool } from './failureContextTool.js';
import { flakyTestsTool } from './flakyTestsTool.js';
import { listFailuresTool } from './listFailuresTool.js';
import { suspectCommitsTool } from './suspectCommitsTool.js';
import { testSummaryTool } from './testSummaryTool.js';

export const testReportTools: readonly McpTool[] = [
  testSummaryTool,
  listFailuresTool,
  failureClustersTool,
  suspectCommitsTool,
  failureContextTool,
  flakyTestsTool,
  compareRunsTool,
  exportCtrfTool,
];
