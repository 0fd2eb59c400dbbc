// Many files as one source, against DuckDB's own reading of them: a table written by DuckDB as hive-partitioned
// Parquet (PARTITION_BY year, month) and as a folder of CSV files, checked with read_parquet(…,
// hive_partitioning=true) / read_csv over the same globs — uniqueness, which files collide, profiles, keys,
// and a join to a single file.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { seededRandom } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileAt } from '../testing/dataFiles.js';
import { profileColumns } from './columnProfile.js';
import { analyzeDuplicates } from './duplicateAnalysis.js';
import { checkJoin } from './joinCheck.js';
import { findKeys } from './keyDiscovery.js';
import { DEFAULT_COMPARISON } from './scanOptions.js';
import { splitGlob } from './sources/fileSetListing.js';
import { openSource } from './sources/openSource.js';
import type { TabularSource } from './sources/tabularSource.js';

const base = mkdtempSync(path.join(tmpdir(), 'groundwork-data-files-'));
const root = path.join(base, 'root');
let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;
const opened: ConfinedDirectory[] = [];

async function duckRows(sql: string): Promise<unknown[][]> {
  return (await duck.runAndReadAll(sql)).getRowsJson() as unknown[][];
}

/** The source a `file` argument names below the test root, as the server opens it. */
async function filesSource(given: string): Promise<TabularSource> {
  const top = await ConfinedDirectory.confinedTo(root);
  opened.push(top);
  const glob = /[*?[{]/.test(given);
  const { folder, pattern } = glob ? splitGlob(given) : { folder: given, pattern: undefined };
  const directory = folder === '.' ? top : await top.openDirectory(folder);
  opened.push(directory);
  return openSource({ kind: 'files', folder: directory, pattern, given, csv: {} });
}

beforeAll(async () => {
  mkdirSync(root);
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  // 8 partitions; ids run on within a partition and restart 250 higher in the next, so a partition of
  // more than 250 rows shares ids with the next one: unique within each file, not across them.
  const random = seededRandom(11);
  const rows: string[] = [];
  const next = new Map<number, number>();
  for (let rn = 1; rn <= 2400; rn++) {
    const partition = Math.floor(random() * 8);
    const position = next.get(partition) ?? 0;
    next.set(partition, position + 1);
    const year = 2025 + Math.floor(partition / 4);
    const month = (partition % 4) + 1;
    const user = random() < 0.05 ? 'NULL' : String(Math.floor(random() * 900));
    const kind = ['click', 'view', 'buy'][Math.floor(random() * 3)];
    rows.push(`(${rn}, ${partition * 250 + position}, ${user}, '${kind}', ${year}, ${month})`);
  }
  await duck.run(
    'CREATE TABLE events (rn INTEGER, id INTEGER, user_id INTEGER, kind VARCHAR, year INTEGER, month INTEGER)',
  );
  await duck.run(`INSERT INTO events VALUES ${rows.join(', ')}`);
  await duck.run(
    `COPY (SELECT * FROM events ORDER BY rn) TO '${root}/lake' (FORMAT parquet, PARTITION_BY (year, month))`,
  );
  // The same rows as five CSV files (no partitions), one holding an id twice.
  mkdirSync(path.join(root, 'exports'));
  for (let part = 0; part < 5; part++) {
    await duck.run(
      `COPY (SELECT rn, id, user_id, kind FROM events WHERE rn % 5 = ${part} ORDER BY rn) TO '${root}/exports/part-${part}.csv' (HEADER)`,
    );
  }
  writeFileSync(
    path.join(root, 'exports', 'part-9.csv'),
    'rn,id,user_id,kind\n9001,7,1,view\n9002,7,2,view\n',
  );
  writeFileSync(path.join(root, 'exports', '_SUCCESS'), '');
  writeFileSync(path.join(root, 'exports', '.part-0.csv.crc'), 'x');
  await duck.run(
    `CREATE TABLE users AS SELECT range AS user_id, 'u' || range AS name FROM range(0, 1000, 1) WHERE range % 9 <> 0`,
  );
  await duck.run(`COPY users TO '${root}/users.csv' (HEADER)`);
  mkdirSync(path.join(base, 'outside'));
  writeFileSync(path.join(base, 'outside', 'secret.csv'), 'a\n1\n');
  symlinkSync('../outside', path.join(root, 'escape'));
  // A folder whose first data file is a link to a file outside.
  mkdirSync(path.join(root, 'links'));
  symlinkSync('../../outside/secret.csv', path.join(root, 'links', 'leak.csv'));
  writeFileSync(path.join(root, 'links', 'ok.csv'), 'a\n2\n');
}, 60_000);

afterAll(async () => {
  for (const directory of opened.reverse()) await directory.close();
  duck?.closeSync();
});

const LAKE = `read_parquet('${root}/lake/**/*.parquet', hive_partitioning = true, filename = true)`;
const EXPORTS = `read_csv('${root}/exports/part-*.csv', header = true, filename = true)`;

/** DuckDB's uniqueness answer for `columns` of `table` (nulls distinct, as in SQL). */
async function uniquenessTruth(table: string, columns: string[]) {
  const notNull = columns.map((column) => `${column} IS NOT NULL`).join(' AND ');
  const [[rows, nulls]] = (await duckRows(
    `SELECT count(*), count(*) FILTER (WHERE NOT (${notNull})) FROM ${table}`,
  )) as [[number, number]];
  const [[distinct, duplicateValues, duplicateRows]] = (await duckRows(
    `SELECT count(*), count(*) FILTER (WHERE n > 1), coalesce(sum(n) FILTER (WHERE n > 1), 0)
     FROM (SELECT count(*) AS n FROM ${table} WHERE ${notNull} GROUP BY ${columns.join(', ')})`,
  )) as [[number, number, number]];
  return {
    rows: Number(rows),
    nulls: Number(nulls),
    distinct: Number(distinct),
    duplicateValues: Number(duplicateValues),
    duplicateRows: Number(duplicateRows),
  };
}

/** DuckDB's account of which files share values of `column`. */
async function collisionTruth(table: string, column: string) {
  const strip = `replace(filename, '${root}/', '')`;
  const [[withinOne, across, repeatedInAFile]] = (await duckRows(
    `SELECT count(*) FILTER (WHERE n > 1 AND files = 1), count(*) FILTER (WHERE files > 1),
            (SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE ${column} IS NOT NULL GROUP BY ${column}, filename HAVING count(*) > 1))
     FROM (SELECT count(*) AS n, count(DISTINCT filename) AS files FROM ${table} WHERE ${column} IS NOT NULL GROUP BY ${column})`,
  )) as [[number, number, number]];
  const pairs = await duckRows(
    `SELECT ${strip.replaceAll('filename', 'a.filename')}, ${strip.replaceAll('filename', 'b.filename')}, count(DISTINCT a.${column}) AS shared
     FROM ${table} a JOIN ${table} b ON a.${column} = b.${column} AND a.filename < b.filename
     GROUP BY ALL ORDER BY shared DESC, 1, 2`,
  );
  return {
    valuesWithinOneFile: Number(withinOne),
    valuesAcrossFiles: Number(across),
    uniqueWithinEachFile: Number(repeatedInAFile) === 0,
    pairs: pairs.map(([a, b, shared]) => ({ files: [a, b], sharedValues: Number(shared) })),
  };
}

const query = (columns: string[]) => ({
  columns,
  comparison: DEFAULT_COMPARISON,
  limit: 1000,
  rowsPerGroup: 1000,
});

describe('many files as one source', () => {
  it('reads hive partition folders as columns, after the files own', async () => {
    const source = await filesSource('lake');
    expect(source.format).toBe('parquet');
    expect(source.columns).toEqual(['rn', 'id', 'user_id', 'kind', 'year', 'month']);
    expect(source.files).toHaveLength(8);
    expect(source.files?.[0]).toMatch(/^lake\/year=2025\/month=1\/.*\.parquet$/);
  });

  for (const columns of [['id'], ['user_id'], ['id', 'year'], ['month'], ['user_id', 'kind', 'year']]) {
    it(`answers uniqueness of ${columns.join(', ')} over partitioned Parquet as DuckDB does`, async () => {
      const source = await filesSource('lake/**/*.parquet');
      const analysis = await analyzeDuplicates(source, query(columns));
      expect(analysis).toMatchObject(await uniquenessTruth(LAKE, columns));
    });
  }

  it('says a key unique within each file collides across files, and which files', async () => {
    const source = await filesSource('lake/year=*/month=*/*.parquet');
    const analysis = await analyzeDuplicates(source, query(['id']));
    const truth = await collisionTruth(LAKE, 'id');
    expect(truth.uniqueWithinEachFile).toBe(true);
    expect(truth.valuesAcrossFiles).toBeGreaterThan(0);
    const collisions = analysis.fileCollisions!;
    expect(collisions).toMatchObject({
      uniqueWithinEachFile: true,
      valuesWithinOneFile: truth.valuesWithinOneFile,
      valuesAcrossFiles: truth.valuesAcrossFiles,
      pairCount: truth.pairs.length,
      pairsExact: true,
    });
    expect(collisions.pairs.map(({ files, sharedValues }) => ({ files, sharedValues }))).toEqual(
      truth.pairs.slice(0, 10),
    );
    // Each listed row is located in a file that DuckDB says holds the value.
    const group = analysis.groups[0]!;
    const holders = await duckRows(
      `SELECT replace(filename, '${root}/', '') FROM ${LAKE} WHERE id = ${group.values[0]} ORDER BY filename, rn`,
    );
    expect(group.rows.map((row) => source.locate?.(row)?.file)).toEqual(holders.map(([name]) => name));
  });

  it('counts a value repeated inside one file of a CSV glob, ignoring what the glob does not match', async () => {
    const source = await filesSource('exports/part-*.csv');
    expect(source.files).toHaveLength(6);
    const analysis = await analyzeDuplicates(source, query(['id']));
    expect(analysis).toMatchObject(await uniquenessTruth(EXPORTS, ['id']));
    const truth = await collisionTruth(EXPORTS, 'id');
    expect(truth.uniqueWithinEachFile).toBe(false);
    expect(analysis.fileCollisions).toMatchObject({
      uniqueWithinEachFile: false,
      valuesWithinOneFile: truth.valuesWithinOneFile,
      valuesAcrossFiles: truth.valuesAcrossFiles,
    });
  });

  it('reads a key that one JSON Lines file lacks as null there, and a CSV column one file lacks as an error', async () => {
    mkdirSync(path.join(root, 'logs'));
    writeFileSync(path.join(root, 'logs', 'a.jsonl'), '{"id": 1, "user": "x"}\n{"id": 2, "user": "y"}\n');
    writeFileSync(path.join(root, 'logs', 'b.jsonl'), '{"id": 2}\n');
    const logs = await filesSource('logs/*.jsonl');
    const analysis = await analyzeDuplicates(logs, query(['user']));
    const [[nulls]] = (await duckRows(
      `SELECT count(*) FILTER (WHERE "user" IS NULL) FROM read_json('${root}/logs/*.jsonl')`,
    )) as [[number]];
    expect(analysis).toMatchObject({ rows: 3, nulls: Number(nulls), duplicateValues: 0 });
    mkdirSync(path.join(root, 'mixed'));
    writeFileSync(path.join(root, 'mixed', 'a.csv'), 'id,user\n1,x\n');
    writeFileSync(path.join(root, 'mixed', 'b.csv'), 'id\n2\n');
    await expect(analyzeDuplicates(await filesSource('mixed'), query(['user']))).rejects.toThrow(
      /Column 'user' is in the first file but not in 'mixed\/b\.csv'/,
    );
  });

  it('says a warning the files share once, naming the first file (bounded) and how many more', async () => {
    // Nested folders of long names: 30 such paths in 30 warnings would be longer than an answer may be.
    const deep = path.join('latin', ...Array.from({ length: 8 }, (_, i) => `${i}${'d'.repeat(240)}`));
    mkdirSync(path.join(root, deep), { recursive: true });
    for (let f = 0; f < 30; f++) {
      writeFileSync(path.join(root, deep, `f${f}.csv`), Buffer.from(`id,name\n${f},caf\xe9\n`, 'latin1'));
    }
    const source = await filesSource('latin/**/*.csv');
    const analysis = await analyzeDuplicates(source, query(['id']));
    expect(analysis).toMatchObject({ rows: 30, duplicateValues: 0 });
    expect(source.warnings).toHaveLength(1);
    const [warning] = source.warnings!;
    expect(warning).toMatch(
      /^latin\/0d+\/1d+…\[cut: \d+ characters\] \(and 29 more file\(s\)\): The file is not valid UTF-8/,
    );
    expect(warning!.length).toBeLessThan(600);
  });

  it('takes a folder as its data files, skipping hidden and underscore names', async () => {
    const source = await filesSource('exports');
    expect(source.files).toEqual([0, 1, 2, 3, 4, 9].map((n) => `exports/part-${n}.csv`));
  });

  it('profiles every column over all files as DuckDB counts them', async () => {
    const source = await filesSource('lake');
    const profile = await profileColumns(source, {
      comparison: DEFAULT_COMPARISON,
      exactDistinctBound: 100_000,
      topValues: 3,
    });
    for (const column of profile.columns) {
      const [[distinct, nulls]] = (await duckRows(
        `SELECT count(DISTINCT ${column.name}), count(*) FILTER (WHERE ${column.name} IS NULL) FROM ${LAKE}`,
      )) as [[number, number]];
      expect({ name: column.name, distinct: column.distinct, nulls: column.nulls }).toEqual({
        name: column.name,
        distinct: Number(distinct),
        nulls: Number(nulls),
      });
    }
  });

  it('finds the keys that hold across all files, which DuckDB confirms', async () => {
    const source = await filesSource('lake');
    const keys = await findKeys(source, { maxColumns: 2, comparison: DEFAULT_COMPARISON, limit: 50 });
    const found = keys.keys.map((key) => key.columns.join(','));
    expect(found).toContain('rn');
    expect(found).not.toContain('id');
    for (const key of keys.keys) {
      const truth = await uniquenessTruth(LAKE, key.columns);
      expect(truth.duplicateValues, key.columns.join(',')).toBe(0);
    }
    // id with its partition is a key: the collisions lie across partitions.
    expect(found.some((key) => key === 'id,year' || key === 'id,month')).toBe(true);
  });

  it('joins a set of files to one file as DuckDB counts the join', async () => {
    const left = await filesSource('lake/**/*.parquet');
    const right = await openSource({ kind: 'file', file: fileAt(path.join(root, 'users.csv')), csv: {} });
    const join = await checkJoin(left, right, {
      on: [{ left: 'user_id', right: 'user_id' }],
      comparison: DEFAULT_COMPARISON,
      samples: 5,
      rowsPerSample: 5,
    });
    const users = `read_csv('${root}/users.csv')`;
    const [[inner, orphanRows]] = (await duckRows(
      `SELECT (SELECT count(*) FROM ${LAKE} a JOIN ${users} b USING (user_id)),
              (SELECT count(*) FROM ${LAKE} a WHERE user_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${users} b WHERE b.user_id = a.user_id))`,
    )) as [[number, number]];
    expect(join.innerJoinRows).toBe(Number(inner));
    expect(join.left.orphanRows).toBe(Number(orphanRows));
    expect(join.cardinality).toBe('n:1');
  });

  it('refuses a glob that climbs out, a link that leads outside, and an empty match', async () => {
    expect(() => splitGlob('lake/../../*.csv')).toThrow(/may not contain '\.\.'/);
    await expect(filesSource('escape/*.csv')).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    // `**` never descends a link, so the outside file is not listed.
    const all = await filesSource('**/*.csv');
    expect(all.files?.some((name) => name.includes('secret'))).toBe(false);
    await expect(filesSource('lake/*.csv')).rejects.toThrow(/matches no files/);
    // A pattern's named step follows a link through the folder's handle, which refuses one leading outside.
    await expect(filesSource('*/secret.csv')).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    const refused = filesSource('links');
    await expect(refused).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(refused).rejects.not.toThrow(/outside\/secret|\/tmp\//);
  });
});
