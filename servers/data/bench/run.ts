// Benchmark: groundwork-data against DuckDB on the same files, each side in its own child process (wall time
// and peak memory, VmHWM). Sizes: BENCH_SIZE_MB (default 200) for the orders CSV, BENCH_KEYS_ROWS (default
// 1,000,000) for the 24-column key discovery table. Data goes to bench-data/ (gitignored); results to stdout.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { writeOrdersCsv, writeWideCsv } from './generateData.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = path.join(root, 'bench-data');
const buildDir = path.join(dataDir, 'build');
const sizeMb = Number(process.env.BENCH_SIZE_MB ?? 200);
const keyRows = Number(process.env.BENCH_KEYS_ROWS ?? 1_000_000);
/** BENCH_ONLY=csv: just the side-by-side CSV comparison with DuckDB. */
const onlyCsv = process.env.BENCH_ONLY === 'csv';

interface Measurement {
  task: string;
  wallSeconds: number;
  cpuSeconds: number;
  peakMegabytes: number;
  result: Record<string, unknown>;
}

/** measure.ts and the search's worker bundled as the server's build bundles them (dist/<name>.js). */
async function bundleMeasure(): Promise<void> {
  const { build } = await import('esbuild');
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    groundwork: { entries: string[] };
  };
  await build({
    entryPoints: ['bench/measure.ts', ...pkg.groundwork.entries],
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: buildDir,
    entryNames: '[name]',
    external: [...Object.keys(pkg.dependencies), '@duckdb/node-api', 'esbuild'],
    banner: {
      js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);",
    },
    logLevel: 'warning',
  });
}

function measure(task: string, file: string, ...extra: string[]): Measurement {
  const child = spawnSync(process.execPath, [path.join(buildDir, 'measure.js'), task, file, ...extra], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (child.status !== 0) throw new Error(`${task} failed: ${child.stderr}`);
  const measurement = JSON.parse(child.stdout.trim().split('\n').pop()!) as Measurement;
  console.log(
    `  ${task.padEnd(20)} ${measurement.wallSeconds.toFixed(2).padStart(7)} s wall ${measurement.cpuSeconds.toFixed(2).padStart(7)} s cpu ${measurement.peakMegabytes.toFixed(0).padStart(6)} MB peak  ${JSON.stringify(measurement.result)}`,
  );
  return measurement;
}

async function step<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const value = await work();
  console.log(`  (${label}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return value;
}

async function duckdb(sql: string): Promise<void> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(sql);
  connection.closeSync();
}

async function prepare() {
  mkdirSync(dataDir, { recursive: true }); // a fresh clone has no bench-data/ yet
  const csv = path.join(dataDir, `orders-${sizeMb}mb.csv`);
  const gz = `${csv}.gz`;
  const parquet = path.join(dataDir, `orders-${sizeMb}mb.parquet`);
  const sqlite = path.join(dataDir, `orders-${sizeMb}mb.db`);
  const wide = path.join(dataDir, `wide-${keyRows}.csv`);
  if (!existsSync(csv)) await step('generate CSV', () => writeOrdersCsv(csv, sizeMb));
  if (onlyCsv) return { csv, gz, parquet, sqlite, wide };
  if (!existsSync(gz))
    await step('gzip', () => pipeline(createReadStream(csv), createGzip(), createWriteStream(gz)));
  if (!existsSync(parquet)) {
    await step('write Parquet with DuckDB', () =>
      duckdb(`COPY (SELECT * FROM read_csv('${csv}', header = true)) TO '${parquet}' (FORMAT parquet)`),
    );
  }
  if (!existsSync(sqlite)) await step('load SQLite', () => loadSqlite(csv, sqlite));
  if (!existsSync(wide)) await step('generate wide CSV', () => writeWideCsv(wide, keyRows));
  return { csv, gz, parquet, sqlite, wide };
}

/** The orders' first three columns into a SQLite table, read with the server's own CSV reader. */
async function loadSqlite(csv: string, file: string): Promise<void> {
  const { default: Database } = await import('better-sqlite3');
  const { openCsvSource } = await import('../src/core/sources/csvSource.js');
  const { DEFAULT_COMPARISON } = await import('../src/core/scanOptions.js');
  const db = new Database(file);
  db.exec(
    'PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; CREATE TABLE orders (order_id INTEGER, user_id TEXT, email TEXT)',
  );
  const insert = db.prepare('INSERT INTO orders VALUES (?, ?, ?)');
  const { openLocalFile } = await import('../src/core/sources/dataFile.js');
  const source = await openCsvSource(await openLocalFile(csv), {});
  db.exec('BEGIN');
  await source.scan(
    [0, 1, 2],
    DEFAULT_COMPARISON,
    (cursor) => insert.run(cursor.text(0), cursor.text(1), cursor.text(2)),
    {},
    'load',
  );
  db.exec('COMMIT');
  db.close();
}

function ratio(ours: Measurement, theirs: Measurement): string {
  return `wall ${(ours.wallSeconds / theirs.wallSeconds).toFixed(2)}×, peak memory ${(ours.peakMegabytes / theirs.peakMegabytes).toFixed(2)}×`;
}

console.log(
  `groundwork-data benchmark — ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const files = await prepare();
await bundleMeasure();
const mb = (file: string) => `${(statSync(file).size / 1024 / 1024).toFixed(0)} MB`;
const results: string[] = [];

// Side by side, in this one run: uniqueness_check against DuckDB doing the same work (the answer with the
// duplicate groups' row numbers) and DuckDB's bare count(DISTINCT), on two key shapes — user_id, unique but
// for a few planted duplicates, and city, eight values in huge groups.
for (const column of ['user_id', 'city']) {
  console.log(`\nuniqueness_check(${column}) on CSV (${mb(files.csv)}) — side by side with DuckDB`);
  const ours = measure('groundwork-csv', files.csv, column);
  const same = measure('duckdb-csv', files.csv, column);
  const bare = measure('duckdb-csv-distinct', files.csv, column);
  results.push(`CSV ${mb(files.csv)}, ${column}, vs DuckDB same work: ${ratio(ours, same)}`);
  results.push(`CSV ${mb(files.csv)}, ${column}, vs DuckDB count(DISTINCT): ${ratio(ours, bare)}`);
}

if (!onlyCsv) {
  console.log(`\nuniqueness_check(user_id) on gzip CSV (${mb(files.gz)})`);
  const gzOurs = measure('groundwork-csv', files.gz);
  const gzDuck = measure('duckdb-csv', files.gz);
  results.push(`gzip CSV ${mb(files.gz)}: ${ratio(gzOurs, gzDuck)}`);

  console.log(`\nuniqueness_check(user_id) on Parquet (${mb(files.parquet)})`);
  const pqOurs = measure('groundwork-parquet', files.parquet);
  const pqDuck = measure('duckdb-parquet', files.parquet);
  results.push(`Parquet ${mb(files.parquet)}: ${ratio(pqOurs, pqDuck)}`);

  console.log(
    `\nuniqueness_check(user_id) pushed down to SQLite (${mb(files.sqlite)}), against DuckDB on the Parquet copy`,
  );
  const sqliteOurs = measure('groundwork-sqlite', files.sqlite);
  results.push(`SQLite ${mb(files.sqlite)} vs DuckDB on Parquet: ${ratio(sqliteOurs, pqDuck)}`);

  console.log(`\nfind_keys(max_columns 3) on ${keyRows} × 24 (${mb(files.wide)})`);
  const keys = measure('groundwork-keys', files.wide);
  results.push(`find_keys ${keyRows} × 24: ${keys.wallSeconds.toFixed(2)} s wall (target ≤ 10 s)`);
}

console.log('\nRatios (groundwork / DuckDB):');
for (const line of results) console.log(`  ${line}`);
