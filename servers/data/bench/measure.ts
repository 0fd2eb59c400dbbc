// One measurement in its own process, so peak memory (VmHWM) belongs to one side only. Prints one JSON line.
// Usage: node bench-data/build/measure.js <task> <file> [column] (run.ts bundles it first, so the parallel
// search's worker threads run built code as the server's do).
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { analyzeDuplicates } from '../src/core/duplicateAnalysis.js';
import { findKeys } from '../src/core/keyDiscovery.js';
import { DEFAULT_COMPARISON } from '../src/core/scanOptions.js';
import { openLocalFile } from '../src/core/sources/dataFile.js';
import { openSource } from '../src/core/sources/openSource.js';

const [task, file, column = 'user_id', table = 'orders'] = process.argv.slice(2);

function peakMegabytes(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) / 1024 : process.resourceUsage().maxRSS / 1024;
}

async function groundworkUniqueness(spec: Parameters<typeof openSource>[0]) {
  const source = await openSource(spec);
  const result = await analyzeDuplicates(source, {
    columns: [column],
    comparison: DEFAULT_COMPARISON,
    limit: 10,
    rowsPerGroup: 10,
  });
  await source.close();
  return {
    rows: result.rows,
    distinct: result.distinct,
    duplicate_values: result.duplicateValues,
    ...(result.ranges === undefined ? {} : { threads: result.ranges }),
  };
}

async function duckdb() {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', { threads: String(availableParallelism()) });
  return instance.connect();
}

/**
 * The same answers as uniqueness_check: rows, distinct non-null values, repeated values, and the ten largest
 * groups with their first ten row numbers (the rows in file order, as DuckDB's insertion order keeps them).
 */
async function duckdbUniqueness(reader: string) {
  const connection = await duckdb();
  const source = reader.replace('$FILE', file!);
  const result = await connection.runAndReadAll(`
    WITH t AS (SELECT "${column}" AS k, row_number() OVER () AS rn FROM ${source}),
    g AS MATERIALIZED (SELECT k, count(*) AS c, min(rn) AS first FROM t GROUP BY k),
    top AS (SELECT k, c, first FROM g WHERE c > 1 AND k IS NOT NULL ORDER BY c DESC, first LIMIT 10)
    SELECT (SELECT sum(c) FROM g)::BIGINT AS rows,
           (SELECT count(*) FROM g WHERE k IS NOT NULL)::BIGINT AS distinct_values,
           (SELECT count(*) FROM g WHERE c > 1 AND k IS NOT NULL)::BIGINT AS duplicate_values,
           (SELECT list(rows) FROM (SELECT top.k, (list(rn ORDER BY rn))[1:10] AS rows
              FROM top JOIN t ON t.k = top.k GROUP BY top.k)) AS samples`);
  const [rows, distinct, duplicates] = result.getRows()[0]!;
  connection.closeSync();
  return { rows: Number(rows), distinct: Number(distinct), duplicate_values: Number(duplicates) };
}

/** DuckDB's bare count(DISTINCT): less work than the answer above, the floor to compare with. */
async function duckdbDistinct(reader: string) {
  const connection = await duckdb();
  const result = await connection.runAndReadAll(
    `SELECT count(DISTINCT "${column}")::BIGINT FROM ${reader.replace('$FILE', file!)}`,
  );
  const [distinct] = result.getRows()[0]!;
  connection.closeSync();
  return { distinct: Number(distinct) };
}

const started = performance.now();
const data = await openLocalFile(file!);
let result: unknown;
switch (task) {
  case 'groundwork-csv':
    result = await groundworkUniqueness({ kind: 'file', file: data, csv: {} });
    break;
  case 'groundwork-parquet':
    result = await groundworkUniqueness({ kind: 'file', file: data, csv: {} });
    break;
  case 'groundwork-sqlite':
    result = await groundworkUniqueness({ kind: 'sqlite', file: data, table });
    break;
  case 'duckdb-csv':
    result = await duckdbUniqueness(`read_csv('$FILE', header = true, all_varchar = true)`);
    break;
  case 'duckdb-csv-distinct':
    result = await duckdbDistinct(`read_csv('$FILE', header = true, all_varchar = true)`);
    break;
  case 'duckdb-parquet':
    result = await duckdbUniqueness(`read_parquet('$FILE')`);
    break;
  case 'groundwork-keys': {
    const source = await openSource({ kind: 'file', file: data, csv: {} });
    const found = await findKeys(source, { maxColumns: 3, comparison: DEFAULT_COMPARISON, limit: 1000 });
    result = {
      rows: found.rows,
      keys: found.keys.map((key) => key.columns.join('+')),
      near_keys: found.nearKeys.length,
    };
    break;
  }
  default:
    throw new Error(`unknown task ${task}`);
}
const wallSeconds = (performance.now() - started) / 1000;
const usage = process.cpuUsage();
const cpuSeconds = (usage.user + usage.system) / 1e6;
process.stdout.write(
  `${JSON.stringify({ task, wallSeconds, cpuSeconds, peakMegabytes: peakMegabytes(), result })}\n`,
);
