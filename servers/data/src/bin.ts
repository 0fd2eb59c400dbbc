#!/usr/bin/env node
import { runServer } from '@groundwork/mcp-common';
import packageJson from '../package.json' with { type: 'json' };
import { dataPrompts } from './mcp/prompts.js';
import { dataTools } from './mcp/tools.js';

await runServer({
  name: 'groundwork-data',
  version: packageJson.version,
  tools: dataTools,
  defaultPort: 3101,
  instructions:
    'Exact answers about tabular data where it lives (CSV/TSV, gzip, JSON Lines, Parquet files; SQLite and PostgreSQL tables): is a column or column combination unique (uniqueness_check), which rows share a value (find_duplicates), what could be the primary key (find_keys), what is in the columns (profile_columns). Use instead of loading a file into pandas or DuckDB by hand; files of any size stream with bounded memory.',
  usageFile: new URL('../MCP_USAGE.md', import.meta.url),
  prompts: dataPrompts,
  // Resolves from dist/bin.js, in the checkout and in the installed package alike.
  skillsDir: new URL('../skills/', import.meta.url),
});
