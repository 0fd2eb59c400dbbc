#!/usr/bin/env node
import { runServer } from '@groundwork/mcp-common';
import packageJson from '../package.json' with { type: 'json' };
import { contextPrompts } from './mcp/prompts.js';
import { contextTools } from './mcp/tools.js';

await runServer({
  name: 'groundwork-context',
  version: packageJson.version,
  tools: contextTools,
  defaultPort: 3102,
  instructions:
    "Call before editing code: project_tree for a repository's shape and import graph, find_context for what a file depends on or what depends on it, symbols for a file's outline, estimate_tokens for what reading files costs, context_bundle for exactly the context an edit needs under a token budget.",
  usageFile: new URL('../MCP_USAGE.md', import.meta.url),
  prompts: contextPrompts,
  skillsDir: new URL('../skills/', import.meta.url),
});
