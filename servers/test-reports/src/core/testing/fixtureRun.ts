// Test helper: reads fixture reports the way the tools do, minus the MCP layer.
import { fileURLToPath } from 'node:url';
import { discoverReports } from '../reportDiscovery.js';
import { type FoldedTest, readRun, type TestRun } from '../testRun.js';

export const fixturesDir = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));

export function fixture(relative: string): string {
  return `${fixturesDir}${relative}`;
}

export async function readFixture(relative: string, details = true): Promise<TestRun> {
  const found = await discoverReports(fixture(relative), (absolute) => absolute);
  return readRun(found, { details, keepDetails: () => true });
}

/** The run's tests by name, for exact assertions. */
export function byName(run: TestRun): Map<string, FoldedTest> {
  return new Map([...run.tests.values()].map((test) => [test.name, test]));
}

export function statuses(run: TestRun): Record<string, string> {
  return Object.fromEntries([...run.tests.values()].map((test) => [test.name, test.status]));
}
