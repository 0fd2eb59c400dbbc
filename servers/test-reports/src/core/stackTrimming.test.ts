import { describe, expect, it } from 'vitest';
import { splitExpectedActual } from './expectedActual.js';
import { trimStack } from './stackTrimming.js';

describe('trimStack', () => {
  it('folds Node.js internals and node_modules frames and counts them', () => {
    const trimmed = trimStack(
      [
        'Error: boom',
        '    at applyCoupon (/repo/lib/coupon.js:28:11)',
        '    at Promise.then.completed (/repo/node_modules/jest-circus/build/utils.js:298:28)',
        '    at new Promise (<anonymous>)',
        '    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
      ].join('\n'),
    );
    expect(trimmed).toEqual({
      stack: 'Error: boom\n    at applyCoupon (/repo/lib/coupon.js:28:11)\n    … 3 framework frames folded',
      folded: 3,
    });
  });

  it('counts frames a runner already elided ("... 42 more")', () => {
    expect(trimStack('java.lang.X\n\tat a.B.c(B.java:1)\n\t... 42 more').folded).toBe(42);
  });
});

describe('splitExpectedActual', () => {
  it.each([
    ['expected: <5> but was: <6>', '5', '6'],
    ['Expected: 8.99\nReceived: 8.991', '8.99', '8.991'],
    ['expected 180 to be 190 // Object.is equality', '190', '180'],
    ['Sum([-1 -2]) = -3, want -4', '-4', '-3'],
    ['assert -5 == -6', '-6', '-5'],
  ])('reads %j', (message, expected, actual) => {
    expect(splitExpectedActual(message)).toEqual({ expected, actual });
  });

  it('says nothing when the message states no values', () => {
    expect(splitExpectedActual('price must not be negative: -1')).toBeUndefined();
  });
});
