// The trimming that tells JVM frames apart by their package prefix (no regex) against the patterns it
// replaced, kept here verbatim: on generated stacks of every runtime, with the whitespace, loader prefixes
// and near-miss package names that the patterns' backtracking decided, and through list_failures' read of
// a generated report, every trimmed stack and folded count is the same as before, byte for byte.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from '@groundwork/mcp-testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { accessUnder, readAt } from '../testing/fixtureRun.js';
import { escapeXml, generatedStack, PATTERNS, trimByPatterns } from '../testing/generatedStacks.js';
import { isNoiseFrame, trimStack } from './stackTrimming.js';
import { stackOf } from './testResult.js';
import { isFailing, trimmedStackOf } from './testRun.js';

const random = seededRandom(25);

describe('trimming by package prefix', () => {
  it('trims 4,000 generated stacks exactly as the patterns did, and finds the same noise', {
    timeout: 60_000,
  }, () => {
    const differing: string[] = [];
    let noiseLines = 0;
    for (let index = 0; index < 4_000; index += 1) {
      const stack = generatedStack(random);
      const [ours, before] = [trimStack(stack), trimByPatterns(stack)];
      if (ours.stack !== before.stack || ours.folded !== before.folded) differing.push(stack);
      for (const line of stack.split('\n')) {
        const noise = PATTERNS.some((pattern) => pattern.test(line));
        if (isNoiseFrame(line) !== noise) differing.push(line);
        if (noise) noiseLines += 1;
      }
    }
    expect(differing.slice(0, 5)).toEqual([]);
    expect(noiseLines).toBeGreaterThan(40_000);
  });

  describe('on a generated report read as list_failures reads it', () => {
    let directory: string | undefined;
    afterAll(async () => {
      if (directory !== undefined) await rm(directory, { recursive: true, force: true });
    });

    it('gives every failure the trimmed stack and folded count the patterns gave', {
      timeout: 60_000,
    }, async () => {
      directory = await mkdtemp(path.join(tmpdir(), 'stack-trimming-'));
      const cases = Array.from({ length: 2_000 }, (_, index) =>
        index % 3 === 0
          ? `<testcase classname="c${index % 17}" name="t${index}"/>`
          : `<testcase classname="c${index % 17}" name="t${index}"><failure message="m${index}" type="E">${escapeXml(generatedStack(random))}</failure></testcase>`,
      );
      const file = path.join(directory, 'report.xml');
      await writeFile(file, `<?xml version="1.0"?>\n<testsuite name="s">${cases.join('\n')}</testsuite>\n`);
      const run = await readAt(await accessUnder(directory), file, {
        details: true,
        keepDetails: () => true,
      });
      const failing = [...run.tests.values()].filter(isFailing);
      expect(failing.length).toBeGreaterThan(1_300);
      for (const test of failing) {
        const raw = (test.failures[0] === undefined ? undefined : stackOf(test.failures[0])) ?? '';
        const before = trimByPatterns(raw);
        expect(trimmedStackOf(test) ?? { stack: '', folded: 0 }, raw).toEqual(before);
      }
    });
  });
});
