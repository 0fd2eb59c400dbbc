import { tmpdir } from 'node:os';
import {
  AllowedPaths,
  answerBudget,
  type CallMemory,
  MemoryBudget,
  type ToolContext,
} from '@groundwork/mcp-common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempPath } from '../testing/dataFiles.js';
import { uniquenessCheckTool } from './uniquenessCheckTool.js';

const MIB = 1024 * 1024;

// 60,000 rows; codes 0–19,999 occur twice, 20,000–39,999 once. Its hash table wants about 2 MiB.
const lines = ['id,code'];
for (let i = 0; i < 60_000; i++) lines.push(`${i},c${i % 40_000}`);
const file = tempPath('shared.csv', `${lines.join('\n')}\n`);

async function check(memory: CallMemory): Promise<Record<string, unknown>> {
  const quiet = () => undefined;
  const ctx: ToolContext = {
    signal: new AbortController().signal,
    progress: quiet,
    log: { debug: quiet, info: quiet, warning: quiet, error: quiet },
    allowedPaths: await AllowedPaths.under(tmpdir()),
    answer: answerBudget(),
    maxResultBytes: 4 * MIB,
    memory,
  };
  const args = uniquenessCheckTool.definition.input.parse({ file, columns: ['code'], limit: 3 });
  const result = await uniquenessCheckTool.apply(args, ctx);
  if (result.kind !== 'success') throw new Error(result.message);
  return result.value as Record<string, unknown>;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the shared memory budget', () => {
  it('keeps concurrent checks within it together, each exact, spilling when granted less', async () => {
    const alone = await check(new MemoryBudget(1024 * MIB).forCall(new AbortController().signal));
    expect(alone).toMatchObject({ unique: false, rows: 60_000, duplicate_values: 20_000, spilled: false });

    // Each call may use 1 MiB; six of them share 2.5 MiB.
    vi.stubEnv('GROUNDWORK_DATA_MEMORY_MB', '1');
    const budget = new MemoryBudget(2.5 * MIB);
    const calls = 6;
    const grants: number[] = [];
    let peak = 0;
    let waitedAtOnce = 0;
    // Every call holds what it got until each has either been granted memory or is waiting for it, so the
    // overlap is the same however the calls are scheduled.
    let allIn: () => void = () => undefined;
    const everyoneIn = new Promise<void>((resolve) => {
      allIn = resolve;
    });
    const settle = () => {
      if (grants.length + budget.waitingCalls === calls) {
        waitedAtOnce = Math.max(waitedAtOnce, budget.waitingCalls);
        allIn();
      }
    };
    const observed = (memory: CallMemory): CallMemory => {
      return {
        async reserve(wanted, least) {
          const reserving = memory.reserve(wanted, least);
          settle();
          const reservation = await reserving;
          grants.push(reservation.bytes);
          peak = Math.max(peak, budget.reservedBytes);
          settle();
          await everyoneIn;
          return reservation;
        },
      };
    };
    const answers = await Promise.all(
      Array.from({ length: calls }, async () => {
        // As mcp-common does for a call: whatever it holds goes back when it ends.
        const memory = budget.forCall(new AbortController().signal);
        try {
          return await check(observed(memory));
        } finally {
          memory.releaseAll();
        }
      }),
    );

    expect(peak).toBeLessThanOrEqual(budget.totalBytes);
    // Two got their cap, the third what was left (less: it spills sooner), the other three waited.
    expect(grants.slice(0, 3).sort((a, b) => b - a)).toEqual([MIB, MIB, 0.5 * MIB]);
    expect(waitedAtOnce).toBe(3);
    expect(grants).toHaveLength(calls);
    for (const answer of answers) expect(answer).toEqual({ ...alone, spilled: true });
  }, 60_000);
});
