import { describe, expect, it } from 'vitest';
import { MemoryBudget } from './memoryBudget.js';

const live = () => new AbortController().signal;

describe('MemoryBudget', () => {
  it('grants what is asked while it is free, then only what is left down to the least asked for', async () => {
    const budget = new MemoryBudget(100);
    const first = await budget.reserve(60, 10, live());
    const second = await budget.reserve(60, 10, live());
    expect([first.bytes, second.bytes]).toEqual([60, 40]);
    expect(budget.reservedBytes).toBe(100);
    first.release();
    first.release();
    expect(budget.reservedBytes).toBe(40);
  });

  it('caps a request at the whole budget, so the least asked for can always be met', async () => {
    const budget = new MemoryBudget(100);
    const whole = await budget.reserve(500, 500, live());
    expect(whole.bytes).toBe(100);
  });

  it('makes a call wait, first come first served, until the least it asked for is free', async () => {
    const budget = new MemoryBudget(100);
    const held = await budget.reserve(100, 100, live());
    const order: string[] = [];
    const big = budget.reserve(80, 80, live()).then((granted) => {
      order.push(`big ${granted.bytes}`);
      return granted;
    });
    // Small enough to fit after `held` goes, but queued behind `big`: it must not overtake it.
    const small = budget.reserve(30, 10, live()).then((granted) => {
      order.push(`small ${granted.bytes}`);
      return granted;
    });
    expect(budget.waitingCalls).toBe(2);
    held.release();
    await Promise.all([big, small]);
    expect(order).toEqual(['big 80', 'small 20']);
    expect(budget.reservedBytes).toBe(100);
  });

  it('stops a waiting call when it is cancelled, and lets the ones behind it through', async () => {
    const budget = new MemoryBudget(100);
    const held = await budget.reserve(70, 70, live());
    const cancelled = new AbortController();
    const blocked = budget.reserve(50, 50, cancelled.signal);
    const behind = budget.reserve(30, 30, live());
    cancelled.abort(new Error('cancelled by the client'));
    await expect(blocked).rejects.toThrow('cancelled by the client');
    expect((await behind).bytes).toBe(30);
    expect(budget.waitingCalls).toBe(0);
    expect(budget.reservedBytes).toBe(100);
    held.release();
    expect(budget.reservedBytes).toBe(30);
  });

  it('refuses at once for a call already cancelled', async () => {
    const budget = new MemoryBudget(100);
    await expect(budget.reserve(10, 10, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(budget.reservedBytes).toBe(0);
  });

  it('returns whatever a call still holds when it ends, releasing each reservation once', async () => {
    const budget = new MemoryBudget(100);
    const call = budget.forCall(live());
    const kept = await call.reserve(40);
    const returned = await call.reserve(30);
    returned.release();
    expect(budget.reservedBytes).toBe(40);
    const other = await budget.reserve(30, 30, live());
    call.releaseAll();
    kept.release();
    expect(budget.reservedBytes).toBe(30);
    other.release();
    expect(budget.reservedBytes).toBe(0);
    expect(kept.bytes).toBe(40);
  });

  it('never grants more than the budget to many calls reserving and releasing at once', async () => {
    const budget = new MemoryBudget(1000);
    let peak = 0;
    const call = async (index: number) => {
      const reservation = await budget.reserve(300 + index * 37, 50, live());
      peak = Math.max(peak, budget.reservedBytes);
      expect(reservation.bytes).toBeGreaterThanOrEqual(50);
      // Hands the turn to the others before releasing, so the calls overlap.
      await Promise.resolve();
      reservation.release();
    };
    await Promise.all(Array.from({ length: 20 }, (_, index) => call(index)));
    expect(peak).toBeLessThanOrEqual(1000);
    expect(peak).toBeGreaterThan(300);
    expect(budget.reservedBytes).toBe(0);
  });
});
