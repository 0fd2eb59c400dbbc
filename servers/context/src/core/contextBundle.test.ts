import { countTokens } from '@groundwork/mcp-common/tokens';
import { describe, expect, it } from 'vitest';
import { buildContextBundle } from './contextBundle.js';
import { ProjectIndex } from './projectIndex.js';
import { fixtureRoot } from './testFixtures.js';
import { tokenCounterFor } from './tokenCounter.js';
import { estimateTokens } from './tokenEstimate.js';

describe('buildContextBundle', () => {
  it('gives the targets in full, then dependencies nearest first, within the budget', async () => {
    using index = new ProjectIndex(fixtureRoot('ts-app'));
    const project = await index.build();
    const bundle = await buildContextBundle(index, project, {
      maxChars: 1_000_000,
      files: ['src/main.ts'],
      budgetTokens: 100_000,
      depth: 2,
      encoding: 'o200k_base',
    });
    expect(bundle.files.map((file) => [file.path, file.distance, file.mode])).toEqual([
      ['src/main.ts', 0, 'full'],
      ['src/lazy.ts', 1, 'full'],
      ['src/lib/greet.ts', 1, 'full'],
      ['src/types.ts', 1, 'full'],
      ['src/utils/index.ts', 1, 'full'],
      ['src/utils/math.ts', 2, 'full'],
      ['src/utils/strings.ts', 2, 'full'],
    ]);
    expect(bundle.omitted).toEqual([]);
    const count = await tokenCounterFor('o200k_base');
    const whole = count(JSON.stringify(bundle));
    // total_tokens counts itself: exact, or one above when its own digits tip the count.
    expect(bundle.total_tokens - whole).toBeGreaterThanOrEqual(0);
    expect(bundle.total_tokens - whole).toBeLessThanOrEqual(1);
  });

  it('fits the answer by the one answer tokenizer whatever encoding counts the files', async () => {
    using index = new ProjectIndex(fixtureRoot('ts-app'));
    const project = await index.build();
    for (const budgetTokens of [150, 400, 1500]) {
      const bundle = await buildContextBundle(index, project, {
        maxChars: 1_000_000,
        files: ['src/main.ts'],
        budgetTokens,
        depth: 2,
        encoding: 'cl100k_base',
      });
      expect(await countTokens(JSON.stringify(bundle))).toBeLessThanOrEqual(budgetTokens);
      expect(bundle.encoding).toBe('cl100k_base');
    }
  });

  it('fits the whole answer as JSON in the budget, the target first whenever anything fits', async () => {
    using index = new ProjectIndex(fixtureRoot('ts-app'));
    const project = await index.build();
    const count = await tokenCounterFor('o200k_base');
    for (const budgetTokens of [90, 120, 150, 200, 260, 320, 400, 600, 900, 1500]) {
      const bundle = await buildContextBundle(index, project, {
        maxChars: 1_000_000,
        files: ['src/main.ts'],
        budgetTokens,
        depth: 2,
        encoding: 'o200k_base',
      });
      const whole = count(JSON.stringify(bundle));
      expect(whole).toBeLessThanOrEqual(budgetTokens);
      expect(bundle.total_tokens).toBeLessThanOrEqual(budgetTokens);
      expect(bundle.total_tokens - whole).toBeLessThanOrEqual(1);
      // Whenever anything fits, the target (whole, outlined or partly outlined) is first.
      expect(bundle.files[0]?.path).toBe('src/main.ts');
      expect(bundle.omitted_count).toBe(7 - bundle.files.length);
    }
  });

  it('never goes over the budget: a file that does not fit whole comes as an outline, or is omitted', async () => {
    using index = new ProjectIndex(fixtureRoot('ts-app'));
    const project = await index.build();
    const estimate = await estimateTokens(index, project, {
      files: ['src/main.ts'],
      depth: 0,
      encoding: 'o200k_base',
    });
    const mainTokens = estimate.total;
    const budgetTokens = mainTokens + 160;
    const bundle = await buildContextBundle(index, project, {
      maxChars: 1_000_000,
      files: ['src/main.ts'],
      budgetTokens,
      depth: 2,
      encoding: 'o200k_base',
    });
    expect(bundle.total_tokens).toBeLessThanOrEqual(budgetTokens);
    expect(bundle.files[0]).toMatchObject({ path: 'src/main.ts', mode: 'full', tokens: mainTokens });
    expect(bundle.omitted_count).toBeGreaterThan(0);
    const included = new Set(bundle.files.map((file) => file.path));
    for (const omitted of bundle.omitted) expect(included.has(omitted.path)).toBe(false);
  });

  it('outlines a target that is too big for the budget instead of dropping it', async () => {
    using index = new ProjectIndex(fixtureRoot('ts-app'));
    const project = await index.build();
    const bundle = await buildContextBundle(index, project, {
      maxChars: 1_000_000,
      files: ['src/main.ts'],
      budgetTokens: 150,
      depth: 0,
      encoding: 'o200k_base',
    });
    expect(bundle.files).toHaveLength(1);
    expect(bundle.files[0]?.mode).toBe('outline');
    expect(bundle.files[0]?.content).toContain(
      '7: export async function main(options: Options): Promise<string>',
    );
    expect(bundle.total_tokens).toBeLessThanOrEqual(150);
  });

  it('rejects an unknown target with close matches', async () => {
    using index = new ProjectIndex(fixtureRoot('ts-app'));
    const project = await index.build();
    await expect(
      buildContextBundle(index, project, {
        maxChars: 1_000_000,
        files: ['src/mian.ts'],
        budgetTokens: 10,
        depth: 1,
        encoding: 'o200k_base',
      }),
    ).rejects.toThrow(/Invalid argument 'files': 'src\/mian\.ts'.*Did you mean: src\/main\.ts/);
  });
});

describe('estimateTokens', () => {
  it('lists the targets first, then their dependencies, and sums them', async () => {
    using index = new ProjectIndex(fixtureRoot('ts-app'));
    const project = await index.build();
    const estimate = await estimateTokens(index, project, {
      files: ['src/utils/index.ts'],
      depth: 1,
      encoding: 'cl100k_base',
    });
    expect(estimate.files.map((file) => file.path)).toEqual([
      'src/utils/index.ts',
      'src/utils/math.ts',
      'src/utils/strings.ts',
    ]);
    expect(estimate.total).toBe(estimate.files.reduce((sum, file) => sum + file.tokens, 0));
    expect(estimate.files.every((file) => file.tokens > 0)).toBe(true);
  });
});
