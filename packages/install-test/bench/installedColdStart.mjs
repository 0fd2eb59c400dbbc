// Stdio cold start of the *installed* packages (not the checkout): each server's tarball from release/
// (`pnpm release` or `pnpm bundle` makes them) and @modelcontextprotocol/server-filesystem, each npm
// installed into its own empty folder; one warm-up start each (the first start after an install hashes the
// bundled dependencies and writes V8's code cache), then BENCH_RUNS interleaved rounds (default 15) of
// spawn → initialize result, and on to the tools/list result (initialized, then tools/list, as a client
// does before it can call anything), medians. The same harness and Node for every contender; BENCH_NODE
// runs them all with another Node binary (e.g. 22). Beside wall time, the CPU time the process had used by
// the initialize result (every thread, from /proc on Linux): a shared machine's load stretches wall time
// with waiting, less so CPU time. Run: `node packages/install-test/bench/installedColdStart.mjs`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const releaseDir = fileURLToPath(new URL('../../../release', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 15);
const work = mkdtempSync(path.join(tmpdir(), 'groundwork-cold-'));
const node = process.env.BENCH_NODE ?? process.execPath;
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
})}\n`;
const LIST_TOOLS = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify(
  {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/list',
  },
)}\n`;

function install(name, spec) {
  const folder = path.join(work, name);
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'package.json'), '{"private":true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', spec], { cwd: folder, stdio: 'ignore' });
  return folder;
}

/** Milliseconds of CPU the process has run on so far, all threads (Linux schedstat), or NaN. */
function cpuMs(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce(
      (sum, task) =>
        sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6,
      0,
    );
  } catch {
    return Number.NaN;
  }
}

/** Milliseconds from spawn to the initialize result and to the tools/list result, and CPU by the first. */
function timeStart(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, args, { stdio: ['pipe', 'pipe', 'ignore'], cwd: work });
    let output = '';
    let initialized;
    let cpu;
    let listed;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (initialized === undefined && output.includes('"id":1')) {
        initialized = performance.now() - started;
        cpu = cpuMs(child.pid);
        child.stdin.write(LIST_TOOLS);
      }
      if (listed === undefined && output.includes('"id":2')) {
        listed = performance.now() - started;
        child.stdin.end(); // a clean exit, so a first start writes its code cache
      }
    });
    child.on('exit', () =>
      listed === undefined ? reject(new Error(`no answer: ${args[0]}`)) : resolve([initialized, listed, cpu]),
    );
    child.stdin.write(INITIALIZE);
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const contenders = {
  'server-filesystem': [
    path.join(
      install('filesystem', '@modelcontextprotocol/server-filesystem@2026.8.31'),
      'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
    ),
    work,
  ],
};
for (const file of readdirSync(releaseDir).filter((name) => name.endsWith('.tgz'))) {
  const name = file.replace(/-\d+\.\d+\.\d+.*$/, '').replace(/^groundwork-/, '');
  const folder = install(name, path.join(releaseDir, file));
  contenders[`@groundwork/${name}`] = [path.join(folder, `node_modules/@groundwork/${name}/dist/bin.js`)];
}
const times = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
for (const args of Object.values(contenders)) await timeStart(args);
for (let round = 0; round < runs; round++) {
  for (const [name, args] of Object.entries(contenders)) times[name].push(await timeStart(args));
}
const baseline = [0, 1, 2].map((at) => median(times['server-filesystem'].map((triple) => triple[at])));
process.stdout.write(
  `Node ${execFileSync(node, ['--version']).toString().trim()}, ${runs} rounds, medians\n`,
);
process.stdout.write('contender\tinitialize\tratio\ttools/list\tratio\tCPU by initialize\tratio\n');
for (const [name, values] of Object.entries(times)) {
  const figures = [0, 1, 2].map((at) => median(values.map((triple) => triple[at])));
  process.stdout.write(
    `${name}\t${figures.map((value, at) => `${value.toFixed(1)} ms\t${(value / baseline[at]).toFixed(2)}×`).join('\t')}\n`,
  );
}
rmSync(work, { recursive: true, force: true });
