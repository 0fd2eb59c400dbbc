// Stdio cold start of the *installed* packages (not the checkout): each server's tarball from release/
// (`pnpm release` or `pnpm bundle` makes them) and @modelcontextprotocol/server-filesystem, each npm
// installed into its own empty folder; one warm-up start each (the first start after an install hashes the
// bundled dependencies and writes V8's code cache), then BENCH_RUNS interleaved rounds (default 15) of
// spawn → initialize result, median. Run: `node packages/install-test/bench/installedColdStart.mjs`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const releaseDir = fileURLToPath(new URL('../../../release', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 15);
const work = mkdtempSync(path.join(tmpdir(), 'groundwork-cold-'));
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
})}\n`;

function install(name, spec) {
  const folder = path.join(work, name);
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'package.json'), '{"private":true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', spec], { cwd: folder, stdio: 'ignore' });
  return folder;
}

function timeStart(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], cwd: work });
    let output = '';
    let elapsed;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (elapsed === undefined && output.includes('"id":1')) {
        elapsed = performance.now() - started;
        child.stdin.end(); // a clean exit, so a first start writes its code cache
      }
    });
    child.on('exit', () =>
      elapsed === undefined ? reject(new Error(`no answer: ${args[0]}`)) : resolve(elapsed),
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
const baseline = median(times['server-filesystem']);
for (const [name, values] of Object.entries(times)) {
  process.stdout.write(
    `${name}\t${median(values).toFixed(1)} ms\t${(median(values) / baseline).toFixed(2)}×\n`,
  );
}
rmSync(work, { recursive: true, force: true });
