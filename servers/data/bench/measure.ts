// One measurement in its own process, so peak memory (VmHWM) belongs to one side only. Prints one JSON line.
// Usage: tsx bench/measure.ts <task> <file> [column]
import { readFileSync } from 'node:fs';
import { analyzeDuplicates } from '../src/core/duplicateAnalysis.js';
import { findKeys } from '../src/core/keyDiscovery.js';
import { DEFAULT_COMPARISON } from '../src/core/scanOptions.js';
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
  return { rows: result.rows, distinct: result.distinct, duplicate_values: result.duplicateValues };
}

async function duckdbUniqueness(reader: string) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  // The same answers: rows, distinct non-null values, repeated values, and the ten largest groups.
  const reader_ = reader.replace('$FILE', file!);
  const result = await connection.runAndReadAll(`
    WITH g AS MATERIALIZED (SELECT "${column}" AS k, count(*) AS c FROM ${reader_} GROUP BY ALL)
    SELECT (SELECT sum(c) FROM g)::BIGINT AS rows,
           (SELECT count(*) FROM g WHERE k IS NOT NULL)::BIGINT AS distinct_values,
           (SELECT count(*) FROM g WHERE c > 1 AND k IS NOT NULL)::BIGINT AS duplicate_values,
           (SELECT list(k) FROM (SELECT k FROM g WHERE c > 1 AND k IS NOT NULL ORDER BY c DESC LIMIT 10)) AS top`);
  const [rows, distinct, duplicates] = result.getRows()[0]!;
  connection.closeSync();
  return { rows: Number(rows), distinct: Number(distinct), duplicate_values: Number(duplicates) };
}

const started = performance.now();
let result: unknown;
switch (task) {
  case 'groundwork-csv':
    result = await groundworkUniqueness({ kind: 'file', path: file!, csv: {} });
    break;
  case 'groundwork-parquet':
    result = await groundworkUniqueness({ kind: 'file', path: file!, csv: {} });
    break;
  case 'groundwork-sqlite':
    result = await groundworkUniqueness({ kind: 'sqlite', path: file!, table });
    break;
  case 'duckdb-csv':
    result = await duckdbUniqueness(`read_csv('$FILE', header = true, all_varchar = true)`);
    break;
  case 'duckdb-parquet':
    result = await duckdbUniqueness(`read_parquet('$FILE')`);
    break;
  case 'groundwork-keys': {
    const source = await openSource({ kind: 'file', path: file!, csv: {} });
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
