// The cost of measuring an answer in tokens, in a fresh process (the first answer over the byte bound: what a
// newly started server pays) and in a warm one, side by side: mcp-common's count on the vocabulary table
// against gpt-tokenizer's, which every answer was counted with before. Each round starts one process per
// contender, alternating, and each reports the CPU of its own calls only (not its start) and the memory the
// first call left behind (after a forced GC).
//   cd packages/mcp-common && npx tsx bench/tokenCount.ts    # BENCH_ROUNDS (default 9), BENCH_WARM (default 40)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const WARM = Number(process.env.BENCH_WARM ?? 40);
const CONTENDERS = ['table', 'gpt-tokenizer'] as const;
type Contender = (typeof CONTENDERS)[number];

/** Answers of two shapes, about 40 KB each; `round` renames them, so that no text repeats one counted before. */
function answers(round: number): { workspace: string; findings: string } {
  const modules = Array.from({ length: 500 }, (_, index) => ({
    system: 'gradle',
    id: `:r${round}-module-${index}`,
    dir: `module-${index}`,
    file: `module-${index}/build.gradle`,
    dependencies: ['com.google.guava:guava:33.0.0-jre', 'org.slf4j:slf4j-api:2.0.9'],
  }));
  const findings = Array.from({ length: 400 }, (_, index) => ({
    rule: 'skill-front-matter',
    severity: index % 3 === 0 ? 'error' : 'warning',
    file: `.claude/skills/skill-${round}-${index}/SKILL.md`,
    message: `The front matter of skill ${index} has no 'description', so an agent cannot tell when to use it.`,
  }));
  return {
    workspace: JSON.stringify({ modules }).slice(0, 40_000),
    findings: JSON.stringify({ findings }).slice(0, 40_000),
  };
}

async function measure(contender: Contender): Promise<void> {
  const budget = 20_000;
  const within =
    contender === 'table'
      ? (await import('../src/answers/tokenCount.js')).withinTokens
      : async (text: string, limit: number) => {
          const { isWithinTokenLimit } = await import('gpt-tokenizer/encoding/o200k_base');
          return isWithinTokenLimit(text, limit, { disallowedSpecial: new Set() }) !== false;
        };
  const cpuOf = async (text: string) => {
    const since = process.cpuUsage();
    if (!(await within(text, budget))) throw new Error('a bench answer must fit the budget');
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  const retained = () => {
    (globalThis as { gc?: () => void }).gc?.();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const before = retained();
  const first = await cpuOf(answers(0).workspace);
  const memory = (retained() - before) / 2 ** 20;
  const warm: number[] = [];
  for (let round = 1; round <= WARM; round++) {
    for (const text of Object.values(answers(round))) warm.push(await cpuOf(text));
  }
  process.stdout.write(JSON.stringify({ first, warm: median(warm), memory }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const asked = process.argv[2] as Contender | undefined;
if (asked !== undefined) {
  await measure(asked);
} else {
  const results = new Map<Contender, { first: number[]; warm: number[]; memory: number[] }>(
    CONTENDERS.map((contender) => [contender, { first: [], warm: [], memory: [] }]),
  );
  const self = fileURLToPath(import.meta.url);
  for (let round = 0; round < ROUNDS; round++) {
    for (const contender of round % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse()) {
      const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, contender], {
        encoding: 'utf8',
      });
      const measured = JSON.parse(output) as { first: number; warm: number; memory: number };
      const result = results.get(contender);
      result?.first.push(measured.first);
      result?.warm.push(measured.warm);
      result?.memory.push(measured.memory);
    }
  }
  for (const [contender, { first, warm, memory }] of results) {
    process.stdout.write(
      `${contender.padEnd(14)} first 40 KB answer in a fresh process: CPU median ${median(first).toFixed(1)} ms (${Math.min(...first).toFixed(0)}–${Math.max(...first).toFixed(0)}); warm 40 KB answer: ${median(warm).toFixed(2)} ms; heap and buffers kept after the first: ${median(memory).toFixed(1)} MiB\n`,
    );
  }
}
