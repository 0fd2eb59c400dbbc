// Test helper: reads fixture reports the way the tools do, minus the MCP layer.
import { fileURLToPath } from 'node:url';
import { AllowedPaths } from '@groundwork/mcp-common';
import type { FileAccess } from '../core/fileAccess.js';
import { discoverReports } from '../core/reportDiscovery.js';
import { type FoldedTest, type ReadRunOptions, readRun, type TestRun } from '../core/testRun.js';

export const fixturesDir = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));

export function fixture(relative: string): string {
  return `${fixturesDir}${relative}`;
}

/** Files opened the way the server opens them: through mcp-common's AllowedPaths, confined to `root`. */
export function accessUnder(root: string): Promise<FileAccess> {
  return AllowedPaths.under(root);
}

/** The run at `given` (a report or a directory), read like the tools read it. */
export async function readAt(
  access: FileAccess,
  given: string,
  options: Omit<ReadRunOptions, 'onProgress'> = { details: true },
): Promise<TestRun> {
  const found = await discoverReports(access, given, options.signal);
  try {
    return await readRun(found.reports, options);
  } finally {
    await found.close();
  }
}

export async function readFixture(relative: string, details = true): Promise<TestRun> {
  return readAt(await accessUnder(fixturesDir), fixture(relative), { details, keepDetails: () => true });
}

/** The run's tests by name, for exact assertions. */
export function byName(run: TestRun): Map<string, FoldedTest> {
  return new Map([...run.tests.values()].map((test) => [test.name, test]));
}

export function statuses(run: TestRun): Record<string, string> {
  return Object.fromEntries([...run.tests.values()].map((test) => [test.name, test.status]));
}
