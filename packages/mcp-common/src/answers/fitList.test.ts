import { countTokens as referenceCount } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it, vi } from 'vitest';
import { answerBudget } from './answerBudget.js';
import { cursorKey, decodeCursor, encodeCursor } from './cursor.js';
import { answerFits, fitList } from './fitList.js';
import { countTokens, withinTokens } from './tokenCount.js';

// The real counter, watched: how often fitList counts is part of its cost.
vi.mock('./tokenCount.js', async (original) => {
  const real = await original<typeof import('./tokenCount.js')>();
  return { ...real, withinTokens: vi.fn(real.withinTokens) };
});

interface Finding {
  file: string;
  message: string;
}

function findings(count: number, text: (index: number) => string): Finding[] {
  return Array.from({ length: count }, (_, index) => ({
    file: `skills/s${index}/SKILL.md`,
    message: text(index),
  }));
}

const frame = (page: Finding[], paging: object) => ({ counts: { error: 1 }, findings: page, ...paging });

/** Every page of `items`, following the cursors, as a client would. */
async function allPages(items: Finding[], maxTokens: number) {
  const key = cursorKey({ path: 'repo' });
  const budget = answerBudget(maxTokens);
  const pages: Array<{ json: string; items: Finding[] }> = [];
  let cursor: string | undefined;
  do {
    const fitted = await fitList(items, { budget, cursor, cursorKey: key, frame });
    pages.push({ json: JSON.stringify(fitted.answer), items: fitted.items });
    cursor = (fitted.answer as { next_cursor?: string }).next_cursor;
    expect(pages.length).toBeLessThan(10_000);
  } while (cursor !== undefined);
  return { pages, budget };
}

describe('fitList', () => {
  it('returns a short list whole, saying it is not truncated', async () => {
    const items = findings(3, (index) => `problem ${index}`);
    const { answer, nextOffset } = await fitList(items, { budget: answerBudget(), frame });
    expect(answer).toEqual({ counts: { error: 1 }, findings: items, truncated: false, total: 3 });
    expect(nextOffset).toBeUndefined();
  });

  it('cuts a long list into pages that each fit the characters and the tokens, and together hold it all', async () => {
    // ASCII prose: the characters bind; digits and CJK: the tokens bind (fewer characters a token).
    for (const text of [
      (index: number) => `front matter of skill ${index} has no 'description' field; add one`,
      (index: number) => `${index}`.repeat(40),
      (index: number) => `説明がありません ${index} 説明を追加してください`.repeat(3),
    ]) {
      const items = findings(3000, text);
      const { pages, budget } = await allPages(items, 5_000);
      expect(pages.length).toBeGreaterThan(2);
      for (const page of pages) {
        expect(page.json.length).toBeLessThanOrEqual(budget.maxChars);
        expect(referenceCount(page.json)).toBeLessThanOrEqual(budget.maxTokens);
      }
      expect(pages.flatMap((page) => page.items)).toEqual(items);
    }
  });

  it('fills each page: one more item would not fit', async () => {
    const items = findings(2000, (index) => `message ${index} `.repeat(1 + (index % 7)));
    const budget = answerBudget(3_000);
    const key = cursorKey('x');
    const fitted = await fitList(items, { budget, cursorKey: key, frame });
    const end = fitted.nextOffset ?? items.length;
    const longer = frame(items.slice(0, end + 1), {
      truncated: true,
      total: items.length,
      next_cursor: encodeCursor(end + 1, key),
    });
    expect(await answerFits(longer, budget)).toBe(false);
    expect(fitted.answer).toMatchObject({ truncated: true, total: 2000 });
  });

  it('fills a page whose frame outweighs its items, counting the tokens of one answer only', async () => {
    // build_workspace's shape: each page carries the edges from its modules, which the items alone do not show.
    const items = findings(2000, (index) => `module ${index}`);
    const edges = (page: Finding[]) => page.flatMap((item) => [`${item.file} -> a`, `${item.file} -> b`]);
    const heavy = (page: Finding[], paging: object) => ({ findings: page, edges: edges(page), ...paging });
    const budget = answerBudget();
    const key = cursorKey('x');
    vi.mocked(withinTokens).mockClear();
    let frames = 0;
    const fitted = await fitList(items, {
      budget,
      cursorKey: key,
      frame: (page, paging) => {
        frames++;
        return heavy(page, paging);
      },
    });
    expect(vi.mocked(withinTokens)).toHaveBeenCalledTimes(1);
    // Each frame is a render of up to the whole answer: the search places its probes, it does not bisect.
    expect(frames).toBeLessThanOrEqual(6);
    const end = fitted.nextOffset ?? items.length;
    expect(end).toBeLessThan(items.length);
    expect(fitted.items).toEqual(items.slice(0, end));
    expect(await answerFits(fitted.answer, budget)).toBe(true);
    const longer = heavy(items.slice(0, end + 1), {
      truncated: true,
      total: items.length,
      next_cursor: encodeCursor(end + 1, key),
    });
    expect(await answerFits(longer, budget)).toBe(false);
  });

  it('fills a page whose first item outweighs the rest in a few renders, as bisection would fill it', async () => {
    // A Maven reactor's shape: the root module aggregates every other one, so the first item brings most edges.
    const items = findings(600, (index) => `module ${index}`);
    const edges = (page: Finding[]) =>
      page.flatMap((item, index) =>
        index === 0 && item === items[0]
          ? items.map((other) => `${other.file} <- root`)
          : [`${item.file} -> a`],
      );
    const budget = answerBudget(10_000);
    const key = cursorKey('x');
    let frames = 0;
    const fitted = await fitList(items, {
      budget,
      cursorKey: key,
      frame: (page, paging) => {
        frames++;
        return { findings: page, edges: edges(page), ...paging };
      },
    });
    expect(frames).toBeLessThanOrEqual(7);
    const end = fitted.nextOffset ?? items.length;
    const json = (upTo: number) =>
      JSON.stringify({
        findings: items.slice(0, upTo),
        edges: edges(items.slice(0, upTo)),
        truncated: true,
        total: items.length,
        next_cursor: encodeCursor(upTo, key),
      });
    expect(json(end).length).toBeLessThanOrEqual(budget.maxChars);
    expect(json(end + 1).length).toBeGreaterThan(budget.maxChars);
  });

  it('answers an empty list, and a cursor at its end, with an empty page', async () => {
    const key = cursorKey('x');
    for (const [items, cursor] of [
      [[], undefined],
      [findings(3, String), encodeCursor(3, key)],
    ] as const) {
      const fitted = await fitList(items, { budget: answerBudget(), cursor, cursorKey: key, frame });
      expect(fitted.answer).toEqual({
        counts: { error: 1 },
        findings: [],
        truncated: false,
        total: items.length,
      });
      expect(fitted.nextOffset).toBeUndefined();
    }
  });

  it('puts at most maxItems in one page, and pages on from there', async () => {
    const items = findings(30, (index) => `problem ${index}`);
    const key = cursorKey('x');
    const first = await fitList(items, { budget: answerBudget(), cursorKey: key, maxItems: 10, frame });
    expect(first.items).toEqual(items.slice(0, 10));
    expect(first.answer).toMatchObject({ truncated: true, total: 30, next_cursor: encodeCursor(10, key) });
    const last = await fitList(items, {
      budget: answerBudget(),
      cursor: encodeCursor(25, key),
      cursorKey: key,
      maxItems: 10,
      frame,
    });
    expect(last.items).toEqual(items.slice(25));
    expect(last.nextOffset).toBeUndefined();
  });

  it('skips an item too large to fit alone, so paging still ends', async () => {
    const items = [{ file: 'a', message: 'x'.repeat(60_000) }, ...findings(2, String)];
    const { pages } = await allPages(items, 1_000);
    expect(pages.flatMap((page) => page.items)).toEqual(items.slice(1));
    expect(JSON.parse(pages[0]?.json ?? '')).toMatchObject({ findings: [], truncated: true });
  });

  it('refuses a cursor cut from other arguments', async () => {
    const items = findings(3000, (index) => `problem ${index}`);
    const fitted = await fitList(items, {
      budget: answerBudget(),
      cursorKey: cursorKey({ path: 'a' }),
      frame,
    });
    const cursor = (fitted.answer as { next_cursor?: string }).next_cursor;
    expect(cursor).toBeDefined();
    expect(() => decodeCursor(cursor, cursorKey({ path: 'b' }))).toThrow(/Invalid argument 'cursor'/);
    expect(() => decodeCursor('bm9wZQ', cursorKey({ path: 'a' }))).toThrow(/not a cursor this server/);
    // fitList refuses it itself, naming the argument it came in.
    const other = { budget: answerBudget(), cursorKey: cursorKey({ path: 'b' }), frame };
    await expect(fitList(items, { ...other, cursor })).rejects.toThrow(/Invalid argument 'cursor'/);
    await expect(fitList(items, { ...other, cursor, cursorArgument: 'page' })).rejects.toThrow(
      /Invalid argument 'page': it was handed out for other arguments/,
    );
    await expect(fitList(items, { ...other, cursor: 'bm9wZQ' })).rejects.toThrow(/not a cursor this server/);
  });
});

describe('token counting', () => {
  it('counts as gpt-tokenizer does, and answers within-limit without counting small texts', async () => {
    const text = JSON.stringify(findings(200, (index) => `problem ${index} <|endoftext|>`));
    expect(await countTokens(text)).toBe(referenceCount(text, { disallowedSpecial: new Set() }));
    const tokens = await countTokens(text);
    expect(await withinTokens(text, tokens)).toBe(true);
    expect(await withinTokens(text, tokens - 1)).toBe(false);
  });
});
