// A glob of files as one source on the wire: the built bin over stdio, CSV exports of one table.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultBudgetProblem } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DataServer, startDataServer } from './dataServer.js';

let server: DataServer;

beforeAll(async () => {
  const base = mkdtempSync(path.join(tmpdir(), 'groundwork-data-files-wire-'));
  const directory = path.join(base, 'allowed');
  mkdirSync(path.join(directory, 'exports', 'day=2026-11-01'), { recursive: true });
  mkdirSync(path.join(directory, 'exports', 'day=2026-11-02'), { recursive: true });
  // Each day's file has unique ids; the second day repeats id 2 of the first.
  writeFileSync(
    path.join(directory, 'exports', 'day=2026-11-01', 'orders.csv'),
    'id,total\n1,10\n2,20\n3,30\n',
  );
  writeFileSync(path.join(directory, 'exports', 'day=2026-11-02', 'orders.csv'), 'id,total\n4,40\n2,21\n');
  mkdirSync(path.join(base, 'outside'));
  writeFileSync(path.join(base, 'outside', 'secret.csv'), 'id\n1\n');
  symlinkSync('../outside', path.join(directory, 'escape'));
  // 200 files with long names, each sharing its ids with the next: many pairs and long file names to fit.
  const long = path.join(directory, 'long');
  mkdirSync(long);
  for (let f = 0; f < 200; f++) {
    const ids = Array.from({ length: 20 }, (_, i) => f * 10 + i);
    writeFileSync(
      path.join(long, `${String(f).padStart(3, '0')}-${'n'.repeat(220)}.csv`),
      `id\n${ids.join('\n')}\n`,
    );
  }
  server = await startDataServer(directory);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('a folder or glob as one source', () => {
  it('says a key unique in each file collides across files, naming the files and rows', async () => {
    const result = await server.call('uniqueness_check', { file: 'exports/day=*/*.csv', columns: ['id'] });
    expect(result).toMatchObject({
      unique: false,
      rows: 5,
      duplicate_values: 1,
      samples: [
        {
          values: ['2'],
          rows: [2, 5],
          files: ['exports/day=2026-11-01/orders.csv', 'exports/day=2026-11-02/orders.csv'],
          file_rows: [2, 2],
          lines: [3, 3],
        },
      ],
      file_collisions: {
        files: 2,
        unique_within_each_file: true,
        values_within_one_file: 0,
        values_across_files: 1,
        pairs: [{ files: ['exports/day=2026-11-01/orders.csv', 'exports/day=2026-11-02/orders.csv'] }],
      },
    });
  });

  it('reads partition folders as columns, so the key with its partition is unique', async () => {
    const result = await server.call('uniqueness_check', { file: 'exports', columns: ['id', 'day'] });
    expect(result).toMatchObject({ unique: true, rows: 5 });
    const profile = await server.call('profile_columns', { file: 'exports', columns: ['day'] });
    expect(profile).toMatchObject({ columns: [{ name: 'day', distinct: 2 }] });
  });

  it('works in every tool: duplicates, keys, joins and checks across the files', async () => {
    const glob = 'exports/day=*/*.csv';
    const duplicates = await server.call('find_duplicates', { file: glob, columns: ['id'] });
    expect(duplicates).toMatchObject({
      total_groups: 1,
      groups: [
        { values: ['2'], files: ['exports/day=2026-11-01/orders.csv', 'exports/day=2026-11-02/orders.csv'] },
      ],
      file_collisions: { values_across_files: 1 },
    });
    const keys = await server.call('find_keys', { file: glob, max_columns: 2 });
    expect((keys.keys as { columns: string[] }[]).map((key) => key.columns)).toContainEqual(['id', 'day']);
    const join = await server.call('join_check', {
      left: { file: glob },
      right: { file: 'exports/day=2026-11-01/orders.csv' },
      on: ['id'],
    });
    expect(join).toMatchObject({
      inner_join_rows: 4,
      left: {
        rows: 5,
        orphan_rows: 1,
        orphans: [{ values: ['4'], rows: [4], files: ['exports/day=2026-11-02/orders.csv'], file_rows: [1] }],
      },
    });
    expect(join.answer).toMatch(/\("4": 1 row, row 1 of exports\/day=2026-11-02\/orders\.csv\)/);
    const checks = await server.call('key_checks', { file: 'exports', columns: ['id', 'day'] });
    expect(checks).toMatchObject({ model: 'exports', holds: true, key: { unique: true, rows: 5 } });
  });

  it('fits its default answer with many colliding files of long names', async () => {
    for (const tool of ['uniqueness_check', 'find_duplicates']) {
      const result = await server.call(tool, { file: 'long/*.csv', columns: ['id'] });
      expect(await defaultBudgetProblem(JSON.stringify(result)), tool).toBeUndefined();
      expect(result.file_collisions).toMatchObject({
        files: 200,
        colliding_pairs: 199,
        unique_within_each_file: true,
      });
    }
  });

  it('refuses globs that climb out or follow a link outside, naming the argument', async () => {
    expect(await server.fail('uniqueness_check', { file: '../*.csv', columns: ['id'] })).toMatch(
      /file: the glob '\.\.\/\*\.csv' may not contain '\.\.'/,
    );
    expect(await server.fail('uniqueness_check', { file: 'escape/*.csv', columns: ['id'] })).toMatch(
      /'escape' is outside the directories this server may read/,
    );
    expect(await server.fail('uniqueness_check', { file: 'exports/*.parquet', columns: ['id'] })).toMatch(
      /file: the glob 'exports\/\*\.parquet' matches no files/,
    );
  });
});
