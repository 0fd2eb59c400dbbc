// Writes each server's server.json (its entry in the official MCP registry) from its package.json and
// scripts/release/servers.mjs. `--check` writes nothing and fails when a checked-in file is out of date.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packageOf, repoRoot, SERVERS, serverJsonOf } from './servers.mjs';

const check = process.argv.includes('--check');
const stale = [];
for (const server of SERVERS) {
  const file = path.join(repoRoot, server.dir, 'server.json');
  const text = `${JSON.stringify(serverJsonOf(server, await packageOf(server)), null, 2)}\n`;
  if (!check) await writeFile(file, text);
  else if ((await readFile(file, 'utf8').catch(() => '')) !== text) stale.push(path.relative(repoRoot, file));
}
if (stale.length > 0) {
  process.stderr.write(`Out of date: ${stale.join(', ')}. Run \`node scripts/release/serverJson.mjs\`.\n`);
  process.exit(1);
}
