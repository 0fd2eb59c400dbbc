import { describe, expect, it } from 'vitest';
import { phasedProgress } from './phasedProgress.js';

describe('phasedProgress', () => {
  it('continues each phase where the last one ended, so progress only grows', () => {
    const sent: Array<[number, number | undefined, string | undefined]> = [];
    const report = phasedProgress((done, total, message) => sent.push([done, total, message]));
    report('scanned', 5, 10);
    report('scanned', 10, 10);
    report('parsed', 0, 4, 'parsed (files)');
    report('parsed', 4, 4, 'parsed (files)');
    report('resolved', 2);
    expect(sent).toEqual([
      [5, 15 - 5, 'scanned'],
      [10, 10, 'scanned'],
      [10, 14, 'parsed (files)'],
      [14, 14, 'parsed (files)'],
      [16, undefined, 'resolved'],
    ]);
  });
});
