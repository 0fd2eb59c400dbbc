import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  cancelledCallCount,
  defaultBudgetProblem,
  logged,
  type StdioSession,
  startedCallCount,
} from '@groundwork/mcp-testkit';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DataServer, startDataServer } from './dataServer.js';

const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
let directory: string;
let server: DataServer;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-wire-'));
  cpSync(fixtures, directory, { recursive: true });
  const db = new Database(path.join(directory, 'shop.db'));
  db.exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT, country TEXT);
    INSERT INTO customers (email, country) VALUES
      ('a@x.io', 'NO'), ('b@x.io', 'SE'), ('a@x.io', 'NO'), (NULL, 'DK'), ('c@x.io', 'NO');`);
  db.close();
  const lines = ['id,code'];
  for (let i = 1; i <= 300_000; i++) lines.push(`${i},"code ${i % 250_000}"`);
  writeFileSync(path.join(directory, 'big.csv.gz'), gzipSync(lines.join('\n')));
  server = await startDataServer(directory);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('uniqueness_check', () => {
  it('reports the rows and lines of each duplicate in a CSV file', async () => {
    const result = await server.call('uniqueness_check', {
      file: 'people.csv',
      columns: ['email'],
      case_insensitive: true,
    });
    expect(result).toMatchObject({
      format: 'csv',
      unique: false,
      rows: 5,
      nulls: 1,
      distinct: 3,
      duplicate_values: 1,
      duplicate_rows: 2,
      samples: [{ values: ['ann@example.com'], count: 2, rows: [1, 3], lines: [2, 4] }],
      truncated: false,
    });
  });

  it('proves a key unique', async () => {
    const result = await server.call('uniqueness_check', { file: 'people.csv', columns: 'id' });
    expect(result).toMatchObject({ unique: true, distinct: 5, samples: [] });
  });

  it('pushes the check down to a real SQLite file', async () => {
    const result = await server.call('uniqueness_check', {
      file: 'sqlite:shop.db',
      table: 'customers',
      columns: ['email'],
    });
    expect(result).toMatchObject({
      format: 'sqlite',
      unique: false,
      rows: 5,
      nulls: 1,
      distinct: 3,
      samples: [{ values: ['a@x.io'], count: 2, rows: [1, 3] }],
    });
  });

  it('reports progress on a long scan of a gzip file', async () => {
    const progress: number[] = [];
    const result = await server.client.callTool(
      { name: 'uniqueness_check', arguments: { file: 'big.csv.gz', columns: ['code'], limit: 1 } },
      undefined,
      { onprogress: (event) => progress.push(event.progress) },
    );
    expect(result.structuredContent).toMatchObject({
      unique: false,
      rows: 300_000,
      duplicate_values: 50_000,
      truncated: true,
    });
    expect(progress.length).toBeGreaterThan(0);
    // Two passes, reported on one increasing scale as MCP requires.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });
});

describe('find_duplicates', () => {
  it('lists the groups largest first with their total', async () => {
    const result = await server.call('find_duplicates', { file: 'people.csv', columns: ['city'] });
    expect(result).toMatchObject({
      groups: [
        { values: ['Oslo'], count: 2, rows: [1, 3], lines: [2, 4] },
        { values: ['Bergen'], count: 2, rows: [2, 5], lines: [3, 6] },
      ],
      total_groups: 2,
      duplicate_rows: 4,
      truncated: false,
    });
  });
});

describe('find_keys', () => {
  it('finds the minimal keys of a SQLite table', async () => {
    const result = await server.call('find_keys', {
      file: 'sqlite:shop.db',
      table: 'customers',
      max_columns: 2,
    });
    expect(result).toMatchObject({
      keys: [{ columns: ['id'], has_nulls: false }],
      rows: 5,
      columns: ['id', 'email', 'country'],
    });
  });
});

describe('profile_columns', () => {
  it('profiles the columns of a CSV file', async () => {
    const result = await server.call('profile_columns', {
      file: 'people.csv',
      columns: ['id', 'city'],
      top_values: 2,
    });
    expect(result).toMatchObject({
      rows: 5,
      columns: [
        { name: 'id', type: 'integer', min: '1', max: '5', distinct: 5 },
        {
          name: 'city',
          type: 'string',
          distinct: 3,
          top_values: [
            { value: 'Bergen', count: 2 },
            { value: 'Oslo', count: 2 },
          ],
        },
      ],
    });
  });
});

describe('bad input', () => {
  it('names the real columns when a column does not exist', async () => {
    expect(await server.fail('uniqueness_check', { file: 'people.csv', columns: ['emial'] })).toBe(
      "Column 'emial' does not exist; the columns are: id, email, name, city.",
    );
  });

  it('refuses a path outside the allowed directories', async () => {
    expect(await server.fail('uniqueness_check', { file: '../../etc/passwd', columns: ['a'] })).toMatch(
      /outside the directories/,
    );
  });

  it('says when the file does not exist, without the absolute path', async () => {
    const message = await server.fail('profile_columns', { file: 'missing.csv' });
    expect(message).toMatch(/does not exist/);
    expect(message).not.toContain(directory);
  });

  it('rejects a table name that is not an identifier', async () => {
    const message = await server.fail('uniqueness_check', {
      file: 'sqlite:shop.db',
      table: 'customers; DROP TABLE customers',
      columns: ['id'],
    });
    expect(message).toMatch(/'table' must be an identifier .* or a double-quoted name/);
  });

  it('refuses a FIFO without opening it (the call does not hang)', async () => {
    execFileSync('mkfifo', [path.join(directory, 'pipe.csv')]);
    expect(await server.fail('profile_columns', { file: 'pipe.csv' })).toMatch(/FIFO/);
  });

  it('explains a file that is not readable in its format', async () => {
    writeFileSync(path.join(directory, 'broken.parquet'), 'not parquet at all');
    expect(await server.fail('profile_columns', { file: 'broken.parquet' })).toMatch(
      /not readable as Parquet/,
    );
  });

  it('keeps serving after errors', async () => {
    const result = await server.call('uniqueness_check', { file: 'people.csv', columns: ['id'] });
    expect(result.unique).toBe(true);
  });
});

describe('bounded answers', () => {
  it('cuts a 10 MB value to its first 256 characters, marked with its full length', async () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    writeFileSync(path.join(directory, 'huge.csv'), `id,blob\n1,${huge}\n2,${huge}\n3,short\n`);
    const result = await server.call('find_duplicates', { file: 'huge.csv', columns: ['blob'] });
    const value = (result.groups as { values: string[] }[])[0]!.values[0]!;
    expect(value).toBe(`${'x'.repeat(256)}…[cut: ${huge.length} characters]`);
    expect(result.truncated).toBe(true);
    expect(result.truncated_parts).toEqual(['values: 1 value(s) cut to 256 characters']);
    const profile = await server.call('profile_columns', { file: 'huge.csv' });
    expect(JSON.stringify(profile).length).toBeLessThan(20_000);
    expect(profile.columns).toMatchObject([{}, { max_length: huge.length }]);
  }, 30_000);

  it('keeps the default answer of a large input within 20,000 tokens and 50,000 characters, saying what it dropped', async () => {
    const lines = ['k'];
    for (let i = 0; i < 1000; i++) lines.push(`${i}-${'v'.repeat(600)}`, `${i}-${'v'.repeat(600)}`);
    writeFileSync(path.join(directory, 'wide.csv'), `${lines.join('\n')}\n`);
    const result = await server.call('find_duplicates', { file: 'wide.csv', columns: ['k'], limit: 1000 });
    expect(await defaultBudgetProblem(JSON.stringify(result))).toBeUndefined();
    const listed = (result.groups as unknown[]).length;
    expect(listed).toBeGreaterThan(10);
    expect(listed).toBeLessThan(1000);
    expect(result.truncated_parts).toEqual([
      'values: 1000 value(s) cut to 256 characters',
      `size: ${1000 - listed} more group(s) dropped to keep the answer within 20000 tokens; raise max_tokens or lower limit`,
    ]);
    const more = await server.call('find_duplicates', {
      file: 'wide.csv',
      columns: ['k'],
      limit: 1000,
      max_tokens: 100_000,
    });
    expect((more.groups as unknown[]).length).toBeGreaterThan(listed * 4);
    expect(JSON.stringify(more).length).toBeLessThanOrEqual(250_000);
  });
});

describe('SQL sources', () => {
  beforeAll(() => {
    const db = new Database(path.join(directory, 'groups.db'));
    db.exec('CREATE TABLE "Order Lines" (k INTEGER, n TEXT)');
    const insert = db.prepare('INSERT INTO "Order Lines" VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < 1200; i++) {
        insert.run(i, 'a');
        insert.run(i, 'b');
      }
    })();
    db.close();
  });

  it('lists 1,000 duplicate groups with their rows (no expression-depth limit), under a quoted table name', async () => {
    const result = await server.call('find_duplicates', {
      file: 'sqlite:groups.db',
      table: '"Order Lines"',
      columns: ['k'],
      limit: 1000,
      rows_per_group: 2,
    });
    expect(result).toMatchObject({ total_groups: 1200, rows: 2400 });
    const groups = result.groups as { values: string[]; rows: number[] }[];
    expect(groups).toHaveLength(1000);
    expect(groups[999]).toEqual({ values: ['999'], count: 2, rows: [1999, 2000] });
  });

  it('gives find_keys, profile_columns and uniqueness_check the same values', async () => {
    const keys = await server.call('find_keys', { file: 'sqlite:groups.db', table: '"Order Lines"' });
    expect(keys.keys).toEqual([{ columns: ['k', 'n'], has_nulls: false }]);
    const check = await server.call('uniqueness_check', {
      file: 'sqlite:groups.db',
      table: '"Order Lines"',
      columns: ['k', 'n'],
    });
    expect(check.unique).toBe(true);
  });
});

describe('text encodings', () => {
  beforeAll(() => {
    // café and cafè in Latin-1: E9 and E8, neither valid UTF-8.
    const latin1 = Buffer.concat([
      Buffer.from('name\ncaf'),
      Buffer.from([0xe9]),
      Buffer.from('\nCAF'),
      Buffer.from([0xc8]),
      Buffer.from('\n'),
    ]);
    writeFileSync(path.join(directory, 'latin1.csv'), latin1);
    writeFileSync(
      path.join(directory, 'image.csv'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    );
  });

  it('decodes Latin-1 when told, so café and CAFÈ differ even ignoring case', async () => {
    const result = await server.call('uniqueness_check', {
      file: 'latin1.csv',
      columns: ['name'],
      encoding: 'latin1',
      case_insensitive: true,
    });
    expect(result).toMatchObject({ unique: true, distinct: 2 });
    expect(result.warnings).toBeUndefined();
    const profile = await server.call('profile_columns', { file: 'latin1.csv', encoding: 'windows-1252' });
    expect(profile.columns).toMatchObject([{ min: 'CAFÈ', max: 'café', max_length: 4 }]);
  });

  it('warns when a file is not valid UTF-8', async () => {
    const result = await server.call('uniqueness_check', { file: 'latin1.csv', columns: ['name'] });
    expect(result.warnings).toEqual([
      expect.stringMatching(/not valid UTF-8 \(first at line 2\).*encoding: 'latin1'/),
    ]);
  });

  it('refuses a binary file as not delimited text', async () => {
    expect(await server.fail('profile_columns', { file: 'image.csv' })).toMatch(/not delimited text/);
  });
});

describe('find_keys arguments', () => {
  it('refuses a negative max_violating_rows', async () => {
    expect(await server.fail('find_keys', { file: 'people.csv', max_violating_rows: -1 })).toMatch(
      /max_violating_rows/,
    );
  });
});

describe('a scan on all cores', () => {
  it('gives the same answer over the wire as the single-threaded scan', async () => {
    const lines = ['id,note,key'];
    for (let i = 1; i <= 20_000; i++)
      lines.push(`${i},"note ${i}${i % 5 === 0 ? '\nmore' : ''}",${i % 9_973}`);
    writeFileSync(path.join(directory, 'parallel.csv'), `${lines.join('\n')}\n`);
    const threaded = await startDataServer(directory, { GROUNDWORK_DATA_PARALLEL_MIN_MB: '0' });
    try {
      const args = { file: 'parallel.csv', columns: ['key'], limit: 1000, rows_per_sample: 3 };
      const expected = await server.call('uniqueness_check', args);
      expect(expected).toMatchObject({ rows: 20_000, duplicate_values: 9_973 });
      expect(await threaded.call('uniqueness_check', args)).toEqual(expected);
    } finally {
      await threaded.close();
    }
  }, 60_000);
});

describe('cancellation', () => {
  it('abandons a cancelled scan and keeps serving', async () => {
    const startedBefore = startedCallCount(server.stderr(), 'find_keys');
    const cancelledBefore = cancelledCallCount(server.stderr(), 'find_keys');
    const controller = new AbortController();
    const call = server.client.callTool({ name: 'find_keys', arguments: { file: 'big.csv.gz' } }, undefined, {
      signal: controller.signal,
    });
    // Cancels once the server says the call is running (an event, not a guess at how long it takes to start).
    await logged(
      () => startedCallCount(server.stderr(), 'find_keys'),
      startedBefore,
      'find_keys starting',
      server.stderr,
    );
    controller.abort();
    await expect(call).rejects.toThrow();
    await logged(
      () => cancelledCallCount(server.stderr(), 'find_keys'),
      cancelledBefore,
      '"tool call cancelled" for find_keys',
      server.stderr,
    );
    const result = await server.call('uniqueness_check', { file: 'people.csv', columns: ['id'] });
    expect(result.unique).toBe(true);
  });
});

describe('prompts and completions on the wire', () => {
  const complete: StdioSession['complete'] = (...args) => server.complete(...args);

  it('lists the four workflows', async () => {
    const { prompts } = await server.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      'find-table-key',
      'check-key-unique',
      'profile-a-dataset',
      'check-join',
    ]);
  });

  it('completes a file, its columns and a SQLite table, each accepted by the tools', async () => {
    expect((await complete('check-key-unique', 'file', 'peo')).values).toEqual(['people.csv']);
    expect((await complete('check-key-unique', 'file', 'sqlite:sh')).values).toEqual(['sqlite:shop.db']);
    const columns = await complete('check-key-unique', 'columns', '', { file: 'people.csv' });
    expect(columns).toMatchObject({ values: ['id', 'email', 'name', 'city'], total: 4, hasMore: false });
    const tables = await complete('find-table-key', 'table', 'cu', { file: 'sqlite:shop.db' });
    expect(tables.values).toEqual(['customers']);
    const tableColumns = await complete('find-table-key', 'columns', 'id, ', {
      file: 'sqlite:shop.db',
      table: 'customers',
    });
    expect(tableColumns.values).toEqual(['id, email', 'id, country']);
    const checked = await server.call('uniqueness_check', {
      file: 'sqlite:shop.db',
      table: tables.values[0],
      columns: tableColumns.values[0],
    });
    expect(checked).toMatchObject({ unique: true, rows: 5 });
  });

  it('offers nothing outside the allowed directory', async () => {
    for (const value of ['../', '/etc/', 'sqlite:../']) {
      expect((await complete('find-table-key', 'file', value)).values, value).toEqual([]);
    }
    expect((await complete('find-table-key', 'columns', '', { file: '../people.csv' })).values).toEqual([]);
  });

  it('renders a prompt whose calls name the arguments given', async () => {
    const rendered = await server.client.getPrompt({
      name: 'check-key-unique',
      arguments: { file: 'people.csv', columns: 'email', compare: 'loose' },
    });
    const text = (rendered.messages[0]?.content as { text?: string } | undefined)?.text;
    expect(text).toContain(
      '`uniqueness_check` with `{"file":"people.csv","columns":["email"],"trim":true,"case_insensitive":true}`',
    );
  });
});
