// join_check on real public data (test/fixtures/public: U.S. airports and 2008 flight routes, trimmed) against
// DuckDB's own counts, with each table as CSV, Parquet, a SQLite table, a DuckDB table and — for the flights —
// a glob of three Parquet files; every pair of those kinds must give DuckDB's answer.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileAt } from '../testing/dataFiles.js';
import { checkJoin } from './joinCheck.js';
import { DEFAULT_COMPARISON } from './scanOptions.js';
import { openSource, type SourceSpec } from './sources/openSource.js';

const fixtures = fileURLToPath(new URL('../../test/fixtures/public/', import.meta.url));
const directory = mkdtempSync(path.join(tmpdir(), 'groundwork-data-public-'));
const at = (name: string) => path.join(directory, name);
let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;
let parts: ConfinedDirectory | undefined;
const flights: Record<string, () => SourceSpec> = {};
const airports: Record<string, () => SourceSpec> = {};

async function duckRows(sql: string): Promise<unknown[][]> {
  return (await duck.runAndReadAll(sql)).getRowsJson() as unknown[][];
}

beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  // Every value as the text it is in the file, so the oracle compares what the files hold.
  await duck.run(
    `CREATE TABLE flights AS SELECT row_number() OVER () AS rn, * FROM read_csv('${fixtures}flights-airport.csv', all_varchar = true)`,
  );
  await duck.run(
    `CREATE TABLE airports AS SELECT row_number() OVER () AS rn, * FROM read_csv('${fixtures}airports.csv', all_varchar = true)`,
  );
  for (const table of ['flights', 'airports']) {
    await duck.run(
      `COPY (SELECT * EXCLUDE rn FROM ${table} ORDER BY rn) TO '${at(`${table}.parquet`)}' (FORMAT parquet)`,
    );
  }
  // The flights in three files, in row order, as one glob.
  for (const [part, where] of ['rn <= 400', 'rn > 400 AND rn <= 800', 'rn > 800'].entries()) {
    await duck.run(
      `COPY (SELECT * EXCLUDE rn FROM flights WHERE ${where} ORDER BY rn) TO '${at(`flights-${part}.parquet`)}' (FORMAT parquet)`,
    );
  }
  await duck.run(`ATTACH '${at('routes.duckdb')}' AS routes`);
  await duck.run('CREATE TABLE routes.flights AS SELECT * EXCLUDE rn FROM flights ORDER BY rn');
  await duck.run('CREATE TABLE routes.airports AS SELECT * EXCLUDE rn FROM airports ORDER BY rn');
  await duck.run('DETACH routes');
  const sqlite = new Database(at('routes.db'));
  for (const table of ['flights', 'airports']) {
    const columns = (await duck.runAndReadAll(`SELECT * EXCLUDE rn FROM ${table} LIMIT 0`)).columnNames();
    sqlite.exec(`CREATE TABLE ${table} (${columns.map((c) => `"${c}" TEXT`).join(', ')})`);
    const insert = sqlite.prepare(`INSERT INTO ${table} VALUES (${columns.map(() => '?').join(', ')})`);
    for (const row of await duckRows(`SELECT * EXCLUDE rn FROM ${table} ORDER BY rn`)) insert.run(...row);
  }
  sqlite.close();
  parts = await ConfinedDirectory.confinedTo(directory);
  const folder = parts;
  for (const [table, kinds, csv] of [
    ['flights', flights, 'flights-airport.csv'],
    ['airports', airports, 'airports.csv'],
  ] as const) {
    kinds.csv = () => ({ kind: 'file', file: fileAt(path.join(fixtures, csv)), csv: {} });
    kinds.parquet = () => ({ kind: 'file', file: fileAt(at(`${table}.parquet`)), csv: {} });
    kinds.sqlite = () => ({ kind: 'sqlite', file: fileAt(at('routes.db')), table });
    kinds.duckdb = () => ({ kind: 'duckdb', file: fileAt(at('routes.duckdb')), table });
  }
  flights.files = () => ({
    kind: 'files',
    folder,
    pattern: 'flights-*.parquet',
    given: 'flights-*.parquet',
    csv: {},
  });
}, 60_000);

afterAll(async () => {
  await parts?.close();
  duck?.closeSync();
});

/** DuckDB's answer for flights.`column` = airports.iata. */
async function truth(column: string) {
  const [[inner, flightOrphans, flightOrphanKeys, airportOrphans, flightKeys, maxFlights]] = (await duckRows(`
    SELECT (SELECT count(*) FROM flights f JOIN airports a ON f.${column} = a.iata),
           (SELECT count(*) FROM flights f WHERE NOT EXISTS (SELECT 1 FROM airports a WHERE a.iata = f.${column})),
           (SELECT count(DISTINCT ${column}) FROM flights f WHERE NOT EXISTS (SELECT 1 FROM airports a WHERE a.iata = f.${column})),
           (SELECT count(*) FROM airports a WHERE NOT EXISTS (SELECT 1 FROM flights f WHERE a.iata = f.${column})),
           (SELECT count(*) FROM (SELECT 1 FROM flights GROUP BY ${column} HAVING count(*) > 1)),
           (SELECT max(c) FROM (SELECT count(*) AS c FROM flights f JOIN airports a ON f.${column} = a.iata GROUP BY a.rn))`)) as [
    [number, number, number, number, number, number],
  ];
  const [[firstOrphan]] = (await duckRows(
    `SELECT min(rn) FROM flights f WHERE NOT EXISTS (SELECT 1 FROM airports a WHERE a.iata = f.${column})`,
  )) as [[number | null]];
  return {
    innerJoinRows: Number(inner),
    cardinality: 'n:1',
    flights: {
      orphanRows: Number(flightOrphans),
      orphanKeys: Number(flightOrphanKeys),
      duplicateKeys: Number(flightKeys),
      firstOrphanRow: firstOrphan === null ? undefined : Number(firstOrphan),
    },
    airports: { orphanRows: Number(airportOrphans), duplicateKeys: 0, maxMatches: Number(maxFlights) },
  };
}

describe('join_check on public data (airports and flight routes)', () => {
  for (const column of ['origin', 'destination']) {
    it(`equals DuckDB's counts for flights.${column} = airports.iata, for every pair of source kinds`, async () => {
      const expected = await truth(column);
      if (column === 'destination') expect(expected.flights.orphanRows).toBeGreaterThan(0);
      expect(expected.airports.orphanRows).toBeGreaterThan(0);
      for (const [leftKind, left] of Object.entries(flights)) {
        for (const [rightKind, right] of Object.entries(airports)) {
          const l = await openSource(left());
          const r = await openSource(right());
          try {
            const check = await checkJoin(l, r, {
              on: [{ left: column, right: 'iata' }],
              comparison: DEFAULT_COMPARISON,
              samples: 3,
              rowsPerSample: 1,
            });
            expect(
              {
                innerJoinRows: check.innerJoinRows,
                cardinality: check.cardinality,
                flights: {
                  orphanRows: check.left.orphanRows,
                  orphanKeys: check.left.orphanKeys,
                  duplicateKeys: check.left.duplicateKeys,
                  firstOrphanRow: check.left.orphans[0]?.rows[0],
                },
                airports: {
                  orphanRows: check.right.orphanRows,
                  duplicateKeys: check.right.duplicateKeys,
                  maxMatches: check.right.maxMatches,
                },
              },
              `${leftKind} ⋈ ${rightKind}`,
            ).toEqual(expected);
          } finally {
            await l.close();
            await r.close();
          }
        }
      }
    }, 120_000);
  }
});
