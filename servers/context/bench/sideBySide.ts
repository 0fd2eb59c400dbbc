// Two builds of groundwork-context side by side on one tree, calls interleaved so both meet the same load:
//   npx tsx bench/sideBySide.ts <root> <before/dist/bin.js> <after/dist/bin.js>
// A cold project_tree (the first call of each process), then medians of 15 warm calls.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [root, beforeBin, afterBin] = process.argv.slice(2);
if (root === undefined || beforeBin === undefined || afterBin === undefined) {
  throw new Error('usage: sideBySide.ts <root> <before bin.js> <after bin.js>');
}
const builds = { before: beforeBin, after: afterBin };
const clients = new Map<string, Client>();
for (const [name, bin] of Object.entries(builds)) {
  const client = new Client({ name: 'side-by-side', version: '0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--allowed-dir', root],
    stderr: 'ignore',
  });
  await client.connect(transport);
  clients.set(name, client);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const cases: Array<[label: string, tool: string, args: Record<string, unknown>, runs: number]> = [
  ['project_tree, cold (first call)', 'project_tree', { path: '.', max_files: 500 }, 1],
  ['project_tree, warm, max_files 500', 'project_tree', { path: '.', max_files: 500 }, 15],
  ['project_tree, warm, max_files 20000', 'project_tree', { path: '.', max_files: 20_000 }, 15],
  [
    'find_context, warm, depth 2 both',
    'find_context',
    { path: '.', file: 'src/mod1/file1.ts', depth: 2 },
    15,
  ],
];
for (const [label, tool, args, runs] of cases) {
  const times = new Map<string, number[]>([
    ['before', []],
    ['after', []],
  ]);
  for (let run = 0; run < runs; run++) {
    for (const name of run % 2 === 0 ? ['before', 'after'] : ['after', 'before']) {
      const started = performance.now();
      const result = await clients.get(name)?.callTool({ name: tool, arguments: args }, undefined, {
        timeout: 600_000,
      });
      if (result?.isError) throw new Error(`${name} ${tool}: ${JSON.stringify(result.content)}`);
      times.get(name)?.push(performance.now() - started);
    }
  }
  const [before, after] = [median(times.get('before') ?? []), median(times.get('after') ?? [])];
  console.log(`| ${label} | ${before.toFixed(1)} ms | ${after.toFixed(1)} ms |`);
}
for (const client of clients.values()) await client.close();
