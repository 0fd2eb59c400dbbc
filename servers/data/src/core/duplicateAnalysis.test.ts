import Database from 'better-sqlite3';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { fileAt, tempFile, tempPath } from '../testing/dataFiles.js';
import { analyzeDuplicates } from './duplicateAnalysis.js';
import type { DuplicateQuery } from './duplicatePasses.js';
import { type Comparison, DEFAULT_COMPARISON } from './scanOptions.js';
import { openCsvSource } from './sources/csvSource.js';
import { openSource } from './sources/openSource.js';
import type { TabularSource } from './sources/tabularSource.js';

function query(columns: string[], comparison: Partial<Comparison> = {}): DuplicateQuery {
  return { columns, comparison: { ...DEFAULT_COMPARISON, ...comparison }, limit: 10, rowsPerGroup: 10 };
}

async function csv(content: string): Promise<TabularSource> {
  return openCsvSource(tempFile('data.csv', content), {});
}

const PEOPLE = 'id,email,team\n1,a@x.io,red\n2,b@x.io,red\n3,a@x.io,blue\n4,,blue\n5,,red\n6,A@X.IO ,blue\n';

describe('analyzeDuplicates', () => {
  it('proves a unique column unique', async () => {
    const result = await analyzeDuplicates(await csv(PEOPLE), query(['id']));
    expect(result).toMatchObject({
      rows: 6,
      distinct: 6,
      nulls: 0,
      duplicateValues: 0,
      duplicateRows: 0,
      groups: [],
    });
  });

  it('reports the rows and lines of each duplicate', async () => {
    const result = await analyzeDuplicates(await csv(PEOPLE), query(['email']));
    expect(result.duplicateValues).toBe(1);
    expect(result.groups).toEqual([{ values: ['a@x.io'], count: 2, rows: [1, 3], lines: [2, 4] }]);
  });

  it('counts nulls but never treats them as duplicates by default', async () => {
    const result = await analyzeDuplicates(await csv(PEOPLE), query(['email']));
    expect(result).toMatchObject({ nulls: 2, distinct: 3, duplicateRows: 2 });
  });

  it("treats nulls as one value with nulls: 'equal'", async () => {
    const result = await analyzeDuplicates(await csv(PEOPLE), query(['email'], { nulls: 'equal' }));
    expect(result).toMatchObject({ nulls: 2, distinct: 4, duplicateValues: 2, duplicateRows: 4 });
    expect(result.groups.map((group) => group.values)).toEqual([['a@x.io'], [null]]);
  });

  it('compares trimmed and case-folded values on request', async () => {
    const result = await analyzeDuplicates(
      await csv(PEOPLE),
      query(['email'], { trim: true, caseInsensitive: true }),
    );
    expect(result.groups).toEqual([{ values: ['a@x.io'], count: 3, rows: [1, 3, 6], lines: [2, 4, 7] }]);
  });

  it('checks compound keys column by column', async () => {
    const unique = await analyzeDuplicates(await csv(PEOPLE), query(['email', 'team']));
    expect(unique.duplicateValues).toBe(0);
    const duplicated = await analyzeDuplicates(await csv('a,b\nx,yz\nxy,z\nx,yz\n'), query(['a', 'b']));
    expect(duplicated.groups).toEqual([{ values: ['x', 'yz'], count: 2, rows: [1, 3], lines: [2, 4] }]);
  });

  it('lists the largest groups first and says when it cut the list', async () => {
    const content = `k\n${['a', 'b', 'b', 'c', 'c', 'c', 'a', 'd'].join('\n')}\n`;
    const result = await analyzeDuplicates(await csv(content), {
      ...query(['k']),
      limit: 2,
      rowsPerGroup: 2,
    });
    expect(result.groups.map((group) => [group.values[0], group.count, group.rows])).toEqual([
      ['c', 3, [4, 5]],
      ['a', 2, [1, 7]],
    ]);
    expect(result).toMatchObject({ duplicateValues: 3, duplicateRows: 7, truncated: true });
  });

  it('gives the same exact answer when a tiny memory budget forces it to spill to disk', async () => {
    const lines = ['id,code'];
    for (let i = 0; i < 20000; i++) lines.push(`${i},c${i % 15000}`);
    const source = await csv(`${lines.join('\n')}\n`);
    const inMemory = await analyzeDuplicates(source, query(['code']));
    const spilled = await analyzeDuplicates(source, query(['code']), { memoryBudgetBytes: 64 * 1024 });
    expect(inMemory.spilled).toBe(false);
    expect(spilled.spilled).toBe(true);
    expect(spilled).toEqual({ ...inMemory, spilled: true });
    expect(spilled).toMatchObject({ distinct: 15000, duplicateValues: 5000, duplicateRows: 10000 });
    // Hundreds of small temporary files: slow when the machine is busy, so more time than the default.
  }, 30_000);

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      analyzeDuplicates(await csv(PEOPLE), query(['id']), { signal: controller.signal }),
    ).rejects.toThrow(/cancelled/);
  });

  it('names the real columns when asked for one that does not exist', async () => {
    await expect(analyzeDuplicates(await csv(PEOPLE), query(['mail']))).rejects.toThrow(
      "Column 'mail' does not exist; the columns are: id, email, team.",
    );
  });
});

describe('the same semantics for every source', () => {
  const rows = [
    { id: 1, email: 'a@x.io', team: 'red' },
    { id: 2, email: 'b@x.io', team: 'red' },
    { id: 3, email: 'a@x.io', team: 'blue' },
    { id: 4, email: null, team: 'blue' },
    { id: 5, email: null, team: 'red' },
    { id: 6, email: 'A@X.IO ', team: 'blue' },
  ];

  async function sources(): Promise<Record<string, TabularSource>> {
    const jsonl = tempFile('data.jsonl', rows.map((row) => JSON.stringify(row)).join('\n'));
    const parquet = tempFile(
      'data.parquet',
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: 'id', data: rows.map((row) => row.id), type: 'INT32' },
            { name: 'email', data: rows.map((row) => row.email), type: 'STRING' },
            { name: 'team', data: rows.map((row) => row.team), type: 'STRING' },
          ],
        }),
      ),
    );
    const sqlite = tempPath('data.db', '');
    const db = new Database(sqlite);
    db.exec('CREATE TABLE people (id INTEGER PRIMARY KEY, email TEXT, team TEXT)');
    const insert = db.prepare('INSERT INTO people VALUES (?, ?, ?)');
    for (const row of rows) insert.run(row.id, row.email, row.team);
    db.close();
    return {
      csv: await csv(PEOPLE),
      jsonl: await openSource({ kind: 'file', file: jsonl, csv: {} }),
      parquet: await openSource({ kind: 'file', file: parquet, csv: {} }),
      sqlite: await openSource({ kind: 'sqlite', file: fileAt(sqlite), table: 'people' }),
    };
  }

  it.each([
    ['default', {}],
    ["nulls 'equal'", { nulls: 'equal' as const }],
    ['trim and case-insensitive', { trim: true, caseInsensitive: true }],
  ])('gives equal counts and groups with %s comparison', async (_name, comparison) => {
    const all = await sources();
    const results = await Promise.all(
      Object.entries(all).map(async ([format, source]) => {
        const result = await analyzeDuplicates(source, query(['email'], comparison));
        await source.close();
        return { format, ...result, groups: result.groups.map((group) => ({ ...group, lines: [] })) };
      }),
    );
    const [first, ...rest] = results;
    for (const other of rest) expect({ ...other, format: first!.format }).toEqual(first);
  });
});
