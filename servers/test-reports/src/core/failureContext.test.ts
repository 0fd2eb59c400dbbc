import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { accessUnder, fixture, fixturesDir, readFixture } from '../testing/fixtureRun.js';
import { buildFailureContext } from './failureContext.js';

// The TypeScript source line itself, template literal included.
// biome-ignore lint/suspicious/noTemplateCurlyInString: this is source text, not a template
const SOURCE_LINE_11 = '> 11 |     throw new Error(`unknown coupon ${code}`);';

async function contextOf(reports: string, root: string, name: string, maxTokens = 4000) {
  const run = await readFixture(reports);
  const test = [...run.tests.values()].find((candidate) => candidate.name === name);
  if (test === undefined) throw new Error(`no test ${name}`);
  return buildFailureContext(test, {
    root: fixture(root),
    access: await accessUnder(fixturesDir),
    contextLines: 1,
    maxTokens,
  });
}

function where(context: Awaited<ReturnType<typeof contextOf>>) {
  return context.sources.map((source) => `${source.role} ${source.file}:${source.line}`);
}

describe('failure_context source resolution', () => {
  it('finds Java frames by package and shows the test line and the code under test', async () => {
    const context = await contextOf('maven', 'maven', 'refusesNegativePrices');
    expect(where(context)).toEqual([
      'test maven/src/test/java/com/acme/cart/CartTest.java:20',
      'code_under_test maven/src/main/java/com/acme/cart/Cart.java:11',
    ]);
    expect(context.sources[1]?.snippet).toBe(
      [
        '  10 |         if (price < 0) {',
        '> 11 |             throw new IllegalArgumentException("price must not be negative: " + price);',
        '  12 |         }',
      ].join('\n'),
    );
  });

  it('splits expected and actual out of a JUnit assertion message', async () => {
    const context = await contextOf('maven', 'maven', 'totalsThePrices');
    expect(context).toMatchObject({ expected: '5', actual: '6', message: 'expected: <5> but was: <6>' });
    expect(context.sources[0]?.snippet).toContain('> 14 |         assertEquals(5, cart.total());');
  });

  it('finds Kotlin frames of a Gradle report', async () => {
    expect(where(await contextOf('gradle', 'gradle', 'roundsToCents()'))).toEqual([
      'test gradle/src/test/kotlin/com/acme/pricing/PriceTest.kt:16',
    ]);
  });

  it('reads pytest tracebacks, where the code under test comes after the test', async () => {
    const context = await contextOf('pytest', 'pytest', 'test_divide_by_zero');
    expect(where(context)).toEqual(['test pytest/tests/test_calc.py:15', 'code_under_test pytest/calc.py:6']);
    expect(context.sources[1]?.snippet).toContain('> 6 |     return a / b');
  });

  it('maps a CI path of compiled JavaScript back to the TypeScript source through its source map', async () => {
    const context = await contextOf('jest/reports/results.json', 'jest', 'rejects unknown coupons politely');
    expect(where(context)).toEqual([
      'test jest/src/coupon.test.js:9',
      'code_under_test jest/src/coupon.ts:11',
    ]);
    expect(context.sources[1]).toMatchObject({ mapped_from: 'jest/lib/coupon.js', function: 'applyCoupon' });
    expect(context.sources[1]?.snippet).toContain(SOURCE_LINE_11);
  });

  it("reads vitest's ❯ frames", async () => {
    const context = await contextOf(
      'vitest/reports/junit.xml',
      'vitest',
      'cart > refuses a discount above 100%',
    );
    expect(where(context)).toEqual([
      'test vitest/src/cart.test.ts:14',
      'code_under_test vitest/src/cart.ts:11',
    ]);
  });

  it('reads Go t.Errorf locations and panic stacks', async () => {
    expect(where(await contextOf('go/reports/go-test.json', 'go', 'TestSumTable/negative'))).toEqual([
      'test go/calc/calc_test.go:23',
    ]);
    const panic = await contextOf('go/reports/go-test.json', 'go', 'TestDiv');
    expect(where(panic)).toEqual(['test go/calc/calc_test.go:30', 'code_under_test go/calc/calc.go:14']);
  });

  it('reads node:test frames without "at"', async () => {
    const context = await contextOf('node-test/results.tap', 'node-test', 'is zero for no numbers');
    expect(where(context)).toEqual(['test node-test/math.test.mjs:11']);
    expect(context).toMatchObject({ expected: '0', actual: 'NaN' });
  });

  it('stays within the token budget by shortening context first', async () => {
    const context = await contextOf('maven', 'maven', 'refusesNegativePrices', 150);
    expect(context.truncated).toBe(true);
    expect(context.sources[0]?.snippet).toBe('> 20 |         cart.add(-1);');
  });

  it('shows no source outside the allowed directories', async () => {
    const run = await readFixture('maven');
    const test = [...run.tests.values()].find((candidate) => candidate.name === 'refusesNegativePrices');
    if (test === undefined) throw new Error('fixture changed');
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'elsewhere-'));
    try {
      const denied = await buildFailureContext(test, {
        root: fixture('maven'),
        access: await accessUnder(elsewhere),
        contextLines: 1,
        maxTokens: 4000,
      });
      expect(denied.sources).toEqual([]);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});
