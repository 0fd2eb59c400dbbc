#!/usr/bin/env node
import { runServer } from '@groundwork/mcp-common';
import packageJson from '../package.json' with { type: 'json' };
import { testReportPrompts } from './mcp/prompts.js';
import { testReportTools } from './mcp/tools.js';

await runServer({
  name: 'groundwork-test-reports',
  version: packageJson.version,
  tools: testReportTools,
  defaultPort: 3103,
  instructions:
    'Reads test reports (JUnit XML, TAP, Jest/Vitest JSON, go test -json, CTRF) to answer "did the tests pass, what failed, why, where, and which commit did it": test_summary first, then failure_clusters (one cluster per cause) or list_failures, then failure_context for the source lines of one failure, and suspect_commits for the commits that likely caused a cluster. flaky_tests and compare_runs compare several runs.',
  usageFile: new URL('../MCP_USAGE.md', import.meta.url),
  prompts: testReportPrompts,
  // Resolves from dist/bin.js, in the checkout and in the installed package alike.
  skillsDir: new URL('../skills/', import.meta.url),
});
