// Pins the public surface as servers consume it: the built package, imported by its name.
import { describe, expect, it } from 'vitest';

describe('@groundwork/mcp-testkit', () => {
  it('exports exactly its documented API from the built dist', async () => {
    const testkit = await import('@groundwork/mcp-testkit');
    expect(Object.keys(testkit).sort()).toEqual([
      'EXTENSION_SCENARIOS',
      'NOT_APPLICABLE',
      'REQUIRED_CONFORMANCE_SCENARIOS',
      'REQUIREMENT_SETS',
      'cancelledCallCount',
      'connectOverStdio',
      'defaultBudgetProblem',
      'describeFailures',
      'describeTransportContract',
      'logged',
      'nullPaths',
      'runBin',
      'runConformance',
      'seededRandom',
      'shippedWorkflowProblems',
      'snakeCaseKeys',
      'startHttpServer',
      'startedCallCount',
      'tally',
      'toolCalls',
      'toolMentionProblems',
      'toolMentions',
    ]);
  });
});
