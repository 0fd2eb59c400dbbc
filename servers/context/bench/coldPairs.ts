// Cold project_tree of two builds, interleaved in pairs so both meet the same load (the A/B the bench rules
// ask for before a start-up or resolution change is kept): CPU and wall medians (CPU under GNU time), and the
// edge sets compared (they must be identical).
//   npx tsx bench/coldPairs.ts <root> <before/dist/bin.js> <after/dist/bin.js> [pairs=10]
import { loadavg } from 'node:os';
import { coldProjectTree } from './contextServer.js';

const [root, beforeBin, afterBin, pairsArgument] = process.argv.slice(2);
if (root === undefined || beforeBin === undefined || afterBin === undefined) {
  throw new Error('usage: coldPairs.ts <root> <before bin.js> <after bin.js> [pairs]');
}
const pairs = Number(pairsArgument ?? 10);
const builds = { before: beforeBin, after: afterBin };
const cpu: Record<keyof typeof builds, number[]> = { before: [], after: [] };
const wall: Record<keyof typeof builds, number[]> = { before: [], after: [] };
let reference: string[] | undefined;
for (let pair = 0; pair < pairs; pair++) {
  const order: Array<keyof typeof builds> = pair % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
  for (const name of order) {
    const run = await coldProjectTree(root, builds[name]);
    if (run.cpuMilliseconds === undefined) throw new Error('GNU time (/usr/bin/time) is needed for CPU time');
    cpu[name].push(Math.round(run.cpuMilliseconds));
    wall[name].push(run.milliseconds);
    const edges = [...run.edges].sort();
    reference ??= edges;
    if (edges.join('\n') !== reference.join('\n')) throw new Error(`${name}: the edge set differs`);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const change = (before: number, after: number) => `${(((after - before) / before) * 100).toFixed(1)} %`;
console.log(
  `${pairs} pairs on ${root}, ${reference?.length} edges (identical), load ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
for (const name of ['before', 'after'] as const) {
  const wallRounded = wall[name].map((milliseconds) => Math.round(milliseconds));
  console.log(
    `${`${name}:`.padEnd(7)} CPU median ${median(cpu[name]).toFixed(0)} ms [${cpu[name].join(', ')}], wall median ${median(wall[name]).toFixed(0)} ms [${wallRounded.join(', ')}]`,
  );
}
console.log(
  `change: CPU ${change(median(cpu.before), median(cpu.after))}, wall ${change(median(wall.before), median(wall.after))}`,
);
