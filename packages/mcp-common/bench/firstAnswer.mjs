// A fresh server's first large answer, end to end: the build server's first build_workspace on a generated
// 500-module Gradle build (a 50,000-character answer, fitted and counted), spawn → answer, in a fresh process
// per call, this checkout's bin against another commit's (BEFORE_BIN), alternating.
//   git worktree add --detach ../before <commit> && (cd ../before && pnpm install --offline && pnpm turbo run build --filter=@groundwork/build...)
//   BEFORE_BIN=../before/servers/build/dist/bin.js node packages/mcp-common/bench/firstAnswer.mjs    # ROUNDS (7)
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const allowed = await mkdtemp(path.join(tmpdir(), 'first-answer-'));
const root = path.join(allowed, 'gradle');
const names = Array.from({ length: 500 }, (_, i) => `module-${i}`);
await mkdir(root, { recursive: true });
await writeFile(
  path.join(root, 'settings.gradle'),
  `rootProject.name = 'bench'\n${names.map((n) => `include ':${n}'`).join('\n')}\n`,
);
for (const [i, n] of names.entries()) {
  await mkdir(path.join(root, n), { recursive: true });
  await writeFile(
    path.join(root, n, 'build.gradle'),
    `apply plugin: 'java-library'\n\ndependencies {\n${i ? `    implementation project(':module-${i - 1}')\n` : ''}    api 'com.google.guava:guava:33.0.0-jre'\n    implementation "org.slf4j:slf4j-api:2.0.9"\n}\n`,
  );
}
if (process.env.BEFORE_BIN === undefined)
  throw new Error('BEFORE_BIN: the build bin of the commit to compare with');
const bins = {
  before: path.resolve(process.env.BEFORE_BIN),
  now: fileURLToPath(new URL('../../../servers/build/dist/bin.js', import.meta.url)),
};
async function once(bin) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, '--allowed-dir', allowed], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let buffer = '';
  const waiting = new Map();
  child.stdout.on('data', (d) => {
    buffer += d;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const m = JSON.parse(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
      waiting.get(m.id)?.(m);
    }
  });
  const send = (id, method, params) =>
    new Promise((r) => {
      waiting.set(id, r);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await send(1, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const call = performance.now();
  const answer = await send(2, 'tools/call', { name: 'build_workspace', arguments: { path: 'gradle' } });
  const done = performance.now();
  const stat = (await readFile(`/proc/${child.pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  const cpu = ((Number(stat[11]) + Number(stat[12])) * 1000) / 100;
  child.stdin.end();
  await new Promise((r) => child.on('exit', r));
  const text = answer.result?.content?.[0]?.text ?? '';
  return {
    wall: done - started,
    call: done - call,
    cpu,
    chars: text.length,
    error: answer.result?.isError === true,
  };
}
const results = { before: [], now: [] };
const rounds = Number(process.env.ROUNDS ?? 7);
for (let r = 0; r < rounds; r++)
  for (const k of r % 2 ? ['now', 'before'] : ['before', 'now']) results[k].push(await once(bins[k]));
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [k, rs] of Object.entries(results))
  console.log(
    k,
    'spawn→answer',
    med(rs.map((x) => x.wall)).toFixed(0),
    'ms; call',
    med(rs.map((x) => x.call)).toFixed(0),
    'ms; server CPU',
    med(rs.map((x) => x.cpu)).toFixed(0),
    'ms; answer chars',
    rs[0].chars,
    'error',
    rs[0].error,
  );
await rm(allowed, { recursive: true, force: true });
