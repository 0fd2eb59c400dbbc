// Pins the public surface as servers consume it: the built package, imported by its name.
import { describe, expect, it } from 'vitest';

describe('@groundwork/mcp-testkit', () => {
  it('exports exactly its documented API from the built dist', async () => {
    const testkit = await import('@groundwork/mcp-testkit');
    expect(Object.keys(testkit).sort()).toEqual([
      'cancelledCallCount',
      'connectOverStdio',
      'defaultBudgetProblem',
      'describeTransportContract',
      'logged',
      'sarifSchemaErrors',
      'seededRandom',
      'shippedWorkflowProblems',
      'startHttpServer',
      'startedCallCount',
      'tally',
      'toolCalls',
      'toolMentionProblems',
    ]);
  });
});
