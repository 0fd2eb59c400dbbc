// `pnpm bench`: test_summary's streaming read against junit2json (the xml2js approach most report tools
// use) on the same generated JUnit file, each side in its own child process, then a 500 MB file alone.
// Sizes: BENCH_CASES (100000), BENCH_MB (200), BENCH_LARGE_MB (500, 0 to skip), BENCH_RUNS (5), BENCH_SEED (7).
// Shapes: BENCH_SHAPES (`mixed,failure-heavy`): the original mix (10 % failing, 40–80-frame stacks, BENCH_MB)
// and a failure-heavy report (30 % failing, 80-frame stacks, BENCH_HEAVY_MB, 235).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connectOverStdio } from '@groundwork/mcp-testkit';
import { build } from 'esbuild';
import { generateJUnit } from './generateJUnit.js';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = path.join(here, '..', 'bench-data');
const cases = Number(process.env.BENCH_CASES ?? 100_000);
const megabytes = Number(process.env.BENCH_MB ?? 200);
const largeMegabytes = Number(process.env.BENCH_LARGE_MB ?? 500);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const seed = Number(process.env.BENCH_SEED ?? 7);

interface Measurement {
  elapsedMs: number;
  /** CPU time (user + system): steadier than wall time on a machine shared with other work. */
  cpuMs: number;
  maxRssMb: number;
  counts: { total: number; failed: number; errored: number; skipped: number };
}

/** Both children are bundled and run on plain node, so neither pays for a TypeScript loader. */
async function bundle(entry: string): Promise<string> {
  const outfile = path.join(dataDir, `${path.basename(entry, '.ts')}.mjs`);
  await build({
    entryPoints: [path.join(here, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  return outfile;
}

async function measure(script: string, file: string, ...extra: string[]): Promise<Measurement> {
  const { stdout } = await run(process.execPath, ['--max-old-space-size=8192', script, file, ...extra], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as Measurement;
}

function median(all: Measurement[]): Measurement {
  const middle = (key: 'elapsedMs' | 'cpuMs') =>
    ([...all].sort((a, b) => a[key] - b[key])[Math.floor(all.length / 2)] as Measurement)[key];
  return {
    elapsedMs: middle('elapsedMs'),
    cpuMs: middle('cpuMs'),
    maxRssMb: Math.max(...all.map((one) => one.maxRssMb)),
    counts: (all[0] as Measurement).counts,
  };
}

const fmt = (value: number, digits = 0) => value.toFixed(digits);
const middleOf = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

// list_failures is also timed as a client sees it, on the built bin (when built: `pnpm build`): started
// fresh, as a client starts it, then one tools/call through the SDK's client, from the request to the whole
// answer (the start and the handshake, the same whatever the call, are not timed).
const bin = path.join(here, '..', 'dist', 'bin.js');
const onTheWire = existsSync(bin);

interface WireCall {
  elapsedMs: number;
  structured: Record<string, unknown>;
}

async function callOnTheWire(file: string, args: Record<string, unknown>): Promise<WireCall> {
  const session = await connectOverStdio({
    bin,
    clientName: 'test-reports-bench',
    args: ['--allowed-dir', path.dirname(file)],
  });
  try {
    const started = performance.now();
    const outcome = await session.call('list_failures', { path: file, ...args });
    const elapsedMs = performance.now() - started;
    if (outcome.isError) throw new Error(`list_failures failed on the wire: ${outcome.text.slice(0, 500)}`);
    return { elapsedMs, structured: outcome.structuredContent ?? {} };
  } finally {
    await session.close();
  }
}

await mkdir(dataDir, { recursive: true });
const [summaryScript, junit2jsonScript, listFailuresScript] = await Promise.all([
  bundle('summaryChild.ts'),
  bundle('junit2jsonChild.ts'),
  bundle('listFailuresChild.ts'),
]);
console.log(
  `machine: ${os.cpus().length} cores, ${fmt(os.totalmem() / 2 ** 30)} GB, node ${process.version}`,
);

const SHAPES = {
  mixed: { targetMegabytes: megabytes },
  'failure-heavy': {
    targetMegabytes: Number(process.env.BENCH_HEAVY_MB ?? 235),
    failureRate: 0.3,
    stackFrames: 80,
  },
} as const;
const shapes = (process.env.BENCH_SHAPES ?? 'mixed,failure-heavy').split(',') as (keyof typeof SHAPES)[];
for (const shape of shapes) {
  const report = await generateJUnit({ cases, seed, directory: dataDir, ...SHAPES[shape] });
  console.log(
    `report (${shape}): ${path.basename(report.file)}: ${fmt(report.bytes / 2 ** 20)} MB, ${report.cases} cases (${report.failed} failed, ${report.errored} errored, ${report.skipped} skipped)`,
  );
  // Interleaved, so a burst of load elsewhere on the machine hits both sides alike.
  const oursAll: Measurement[] = [];
  const theirsAll: Measurement[] = [];
  // On the failure-heavy shape, list_failures too: plain, and grouped by cause (clusters).
  const withFailures = shape === 'failure-heavy';
  const plainAll: Measurement[] = [];
  const groupedAll: Measurement[] = [];
  const wirePlain: WireCall[] = [];
  const wireGrouped: WireCall[] = [];
  for (let index = 0; index < runs; index += 1) {
    oursAll.push(await measure(summaryScript, report.file));
    theirsAll.push(await measure(junit2jsonScript, report.file));
    if (withFailures) {
      plainAll.push(await measure(listFailuresScript, report.file, 'plain'));
      groupedAll.push(await measure(listFailuresScript, report.file, 'grouped'));
      if (onTheWire) {
        wirePlain.push(await callOnTheWire(report.file, {}));
        wireGrouped.push(await callOnTheWire(report.file, { group: true }));
      }
    }
  }
  const ours = median(oursAll);
  const theirs = median(theirsAll);
  for (const [name, result] of [
    ['test_summary', ours],
    ['junit2json', theirs],
  ] as const) {
    const agrees =
      result.counts.total === report.cases &&
      result.counts.failed === report.failed &&
      result.counts.errored === report.errored &&
      result.counts.skipped === report.skipped;
    console.log(
      `${name.padEnd(13)} ${fmt(result.elapsedMs).padStart(7)} ms wall ${fmt(result.cpuMs).padStart(7)} ms CPU  peak RSS ${fmt(result.maxRssMb).padStart(5)} MB  counts ${agrees ? 'match' : `DIFFER ${JSON.stringify(result.counts)}`}`,
    );
  }
  const speedup = theirs.elapsedMs / ours.elapsedMs;
  const cpuSpeedup = theirs.cpuMs / ours.cpuMs;
  const memory = ours.maxRssMb / theirs.maxRssMb;
  console.log(
    `speed: ${fmt(speedup, 1)}x faster by wall time (target >= 5x: ${speedup >= 5 ? 'met' : 'NOT met'}), ${fmt(cpuSpeedup, 1)}x by CPU time`,
  );
  console.log(
    `memory: ${fmt(memory, 3)} of junit2json's peak (target <= 0.25: ${memory <= 0.25 ? 'met' : 'NOT met'})`,
  );
  if (withFailures) {
    const plain = median(plainAll);
    const grouped = median(groupedAll);
    const clusters = (groupedAll[0] as Measurement & { clusters?: number }).clusters;
    const added = grouped.elapsedMs / plain.elapsedMs - 1;
    const addedCpu = grouped.cpuMs / plain.cpuMs - 1;
    const versus = theirs.elapsedMs / grouped.elapsedMs;
    console.log(
      `list_failures ${fmt(plain.elapsedMs).padStart(7)} ms wall ${fmt(plain.cpuMs).padStart(7)} ms CPU  peak RSS ${fmt(plain.maxRssMb).padStart(5)} MB  (${report.failed + report.errored} failures)`,
    );
    console.log(
      `  + clusters  ${fmt(grouped.elapsedMs).padStart(7)} ms wall ${fmt(grouped.cpuMs).padStart(7)} ms CPU  peak RSS ${fmt(grouped.maxRssMb).padStart(5)} MB  (${clusters} clusters)`,
    );
    console.log(
      `clustering adds ${fmt(added * 100, 1)} % wall, ${fmt(addedCpu * 100, 1)} % CPU (target <= 20 %: ${added <= 0.2 ? 'met' : 'NOT met'}); grouped list_failures is ${fmt(versus, 1)}x faster than junit2json (target >= 5x: ${versus >= 5 ? 'met' : 'NOT met'})`,
    );
    if (onTheWire) {
      const plainMs = middleOf(wirePlain.map((call) => call.elapsedMs));
      const groupedMs = middleOf(wireGrouped.map((call) => call.elapsedMs));
      const total = (wirePlain[0] as WireCall).structured.total;
      const clusterCount = (wireGrouped[0] as WireCall).structured.cluster_count;
      if (total !== report.failed + report.errored || clusterCount !== clusters)
        throw new Error(`the bin answered ${total} failures in ${clusterCount} clusters`);
      console.log(
        `on the wire (the built bin over stdio, a fresh server per call, the SDK's client): list_failures ${fmt(plainMs)} ms, with group ${fmt(groupedMs)} ms (clustering adds ${fmt((groupedMs / plainMs - 1) * 100, 1)} %; ${fmt(theirs.elapsedMs / plainMs, 1)}x and ${fmt(theirs.elapsedMs / groupedMs, 1)}x junit2json's read)`,
      );
    } else console.log('on the wire: not measured (build the bin first: pnpm build)');
  }
}

if (largeMegabytes > 0) {
  const large = await generateJUnit({
    cases: Math.round((cases * largeMegabytes) / megabytes),
    targetMegabytes: largeMegabytes,
    seed,
    directory: dataDir,
  });
  const alone = await measure(summaryScript, large.file);
  const ok = alone.counts.total === large.cases && alone.maxRssMb < 256;
  console.log(
    `large: ${fmt(large.bytes / 2 ** 20)} MB, ${large.cases} cases: ${fmt(alone.elapsedMs)} ms wall, ${fmt(alone.cpuMs)} ms CPU, peak RSS ${fmt(alone.maxRssMb)} MB (target < 256 MB: ${ok ? 'met' : 'NOT met'})`,
  );
}
