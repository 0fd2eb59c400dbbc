// Writes each server's server.json (its entry in the official MCP registry) from its package.json and
// scripts/release/servers.mjs, and its package.json's `mcpName` (REGISTRY_NAMESPACE there). `--check`
// writes nothing and fails when a checked-in file is out of date.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mcpNameOf, packageOf, repoRoot, SERVERS, serverJsonOf } from './servers.mjs';

const check = process.argv.includes('--check');
const stale = [];
for (const server of SERVERS) {
  // Only the mcpName line changes, so the rest of package.json keeps its formatting.
  const pkgFile = path.join(repoRoot, server.dir, 'package.json');
  const pkgText = await readFile(pkgFile, 'utf8');
  const mcpNameLine = /^(\s*"mcpName": )"[^"\n]*"/m;
  if (!mcpNameLine.test(pkgText)) throw new Error(`${pkgFile}: no "mcpName" to set.`);
  const updated = pkgText.replace(mcpNameLine, `$1${JSON.stringify(mcpNameOf(server))}`);
  if (updated !== pkgText) {
    if (check) stale.push(path.relative(repoRoot, pkgFile));
    else await writeFile(pkgFile, updated);
  }
  const file = path.join(repoRoot, server.dir, 'server.json');
  const text = `${JSON.stringify(serverJsonOf(server, await packageOf(server)), null, 2)}\n`;
  if (!check) await writeFile(file, text);
  else if ((await readFile(file, 'utf8').catch(() => '')) !== text) stale.push(path.relative(repoRoot, file));
}
if (stale.length > 0) {
  process.stderr.write(`Out of date: ${stale.join(', ')}. Run \`node scripts/release/serverJson.mjs\`.\n`);
  process.exit(1);
}
