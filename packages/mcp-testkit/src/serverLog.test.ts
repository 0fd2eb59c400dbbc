import { describe, expect, it } from 'vitest';
import { cancelledCallCount } from './serverLog.js';

describe('cancelledCallCount', () => {
  it('counts the cancellation lines of one tool only', () => {
    const log = [
      '{"level":30,"name":"s","tool":"wait","ms":310,"msg":"tool call cancelled"}',
      '{"level":30,"name":"s","tool":"scan","ms":12,"msg":"tool call cancelled"}',
      '{"level":30,"name":"s","tool":"wait","msg":"listening"}',
      '{"level":30,"name":"s","tool":"wait","ms":90,"msg":"tool call cancelled"}',
    ].join('\n');
    expect(cancelledCallCount(log, 'wait')).toBe(2);
  });
});
