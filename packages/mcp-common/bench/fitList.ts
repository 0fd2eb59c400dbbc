// fitList's cost on a list whose frame outweighs its items (build_workspace's shape: modules, and the edges from
// the page's modules), in a fresh process: the first call (loading the tokenizer), then calls on other lists.
//   cd packages/mcp-common && npx tsx bench/fitList.ts    # BENCH_ITEMS (default 500), BENCH_RUNS (default 40)
import { answerBudget } from '../src/answers/answerBudget.js';
import { fitList } from '../src/answers/fitList.js';

const items = Number(process.env.BENCH_ITEMS ?? 500);
const runs = Number(process.env.BENCH_RUNS ?? 40);
/** A build_workspace-shaped list; `round` renames it, so that no answer repeats one measured before. */
function workspace(round: number) {
  const modules = Array.from({ length: items }, (_, index) => ({
    system: 'gradle',
    id: `:r${round}-module-${index}`,
    dir: `module-${index}`,
    file: `module-${index}/build.gradle`,
  }));
  const edges = modules.flatMap((module, index) => [
    { system: 'gradle', from: module.id, to: `:r${round}-module-${index - 1}`, kind: 'implementation' },
    { system: 'gradle', from: module.id, to: 'com.google.guava:guava:33.0.0-jre', kind: 'api' },
    { system: 'gradle', from: module.id, to: 'org.slf4j:slf4j-api:2.0.9', kind: 'implementation' },
  ]);
  const frame = (page: typeof modules, paging: object) => {
    const ids = new Set(page.map((module) => module.id));
    return { modules: page, edges: edges.filter((edge) => ids.has(edge.from)), ...paging };
  };
  return { modules, frame };
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function once(round: number): Promise<{ wall: number; cpu: number; shown: number }> {
  const { modules, frame } = workspace(round);
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const fitted = await fitList(modules, { budget: answerBudget(), cursorKey: 'bench', frame });
  return { wall: performance.now() - wall, cpu: cpuMs(cpu), shown: fitted.items.length };
}

const first = await once(0);
// CPU rather than wall: the figure that a busy machine disturbs least.
const warm: number[] = [];
for (let run = 0; run < runs; run++) warm.push((await once(run + 1)).cpu);
warm.sort((a, b) => a - b);
const median = warm[Math.floor(warm.length / 2)] ?? Number.NaN;
process.stdout.write(
  `${items} modules, ${first.shown} in the first page: first call ${first.wall.toFixed(0)} ms (CPU ${first.cpu.toFixed(0)} ms), then CPU median ${median.toFixed(1)} ms of ${runs}\n`,
);
