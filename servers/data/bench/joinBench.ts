// join_check of two CSVs against DuckDB's queries that give the same answer (count(*) of the join, match
// counts per row, anti-joins for orphans), each in its own child process: wall time and peak memory (VmHWM).
// `npx tsx bench/joinBench.ts [rows]` (default 5,000,000); data generated once into /tmp/gw-join.
import { existsSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { benchRole, peakMb, runSide } from './sideProcess.js';

const rows = Number(process.argv[2] ?? 5_000_000);
const dir = '/tmp/gw-join';
const left = `${dir}/orders-${rows}.csv`;
const right = `${dir}/customers-${rows}.csv`;
const role = benchRole;

if (role === 'groundwork') {
  const { openLocalFile } = await import('../src/core/sources/dataFile.js');
  const { openCsvSource } = await import('../src/core/sources/csvSource.js');
  const { checkJoin } = await import('../src/core/joinCheck.js');
  const start = performance.now();
  const l = await openCsvSource(await openLocalFile(left), {});
  const r = await openCsvSource(await openLocalFile(right), {});
  const check = await checkJoin(l, r, {
    on: [{ left: 'customer_id', right: 'id' }],
    comparison: { nulls: 'distinct', trim: false, caseInsensitive: false },
    samples: 10,
    rowsPerSample: 5,
  });
  const seconds = (performance.now() - start) / 1000;
  process.stdout.write(
    JSON.stringify({
      seconds,
      peakMb: peakMb(),
      innerJoinRows: check.innerJoinRows,
      orphans: check.left.orphanRows,
    }),
  );
} else if (role === 'duckdb') {
  const start = performance.now();
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  const q = async (sql: string) => (await duck.runAndReadAll(sql)).getRowsJS();
  const l = `read_csv('${left}')`;
  const r = `read_csv('${right}')`;
  const [[inner]] = (await q(`SELECT count(*) FROM ${l} a JOIN ${r} b ON a.customer_id = b.id`)) as [
    [bigint],
  ];
  await q(
    `SELECT m, count(*) FROM (SELECT count(b.id) m FROM (SELECT row_number() OVER () rn, customer_id FROM ${l}) a LEFT JOIN ${r} b ON a.customer_id = b.id WHERE a.customer_id IS NOT NULL GROUP BY a.rn) GROUP BY m`,
  );
  await q(
    `SELECT m, count(*) FROM (SELECT count(a.customer_id) m FROM (SELECT row_number() OVER () rn, id FROM ${r}) b LEFT JOIN ${l} a ON a.customer_id = b.id WHERE b.id IS NOT NULL GROUP BY b.rn) GROUP BY m`,
  );
  const [[orphans]] = (await q(
    `SELECT count(*) FROM ${l} a WHERE customer_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${r} b WHERE b.id = a.customer_id)`,
  )) as [[bigint]];
  await q(
    `SELECT * FROM (SELECT row_number() OVER () rn, customer_id FROM ${l}) a WHERE customer_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${r} b WHERE b.id = a.customer_id) ORDER BY rn LIMIT 10`,
  );
  await q(
    `SELECT id, count(*) c FROM ${r} WHERE id IN (SELECT customer_id FROM ${l}) GROUP BY id HAVING c > 1 ORDER BY c DESC LIMIT 10`,
  );
  const seconds = (performance.now() - start) / 1000;
  process.stdout.write(
    JSON.stringify({ seconds, peakMb: peakMb(), innerJoinRows: Number(inner), orphans: Number(orphans) }),
  );
} else {
  if (!existsSync(right)) {
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    // Orders reference customers 0..1.1n (10% orphans); customers hold ids 0..n with every 50th twice.
    await duck.run(
      `COPY (SELECT i AS order_id, (hash(i) % ${Math.round(rows * 1.1)})::BIGINT AS customer_id, i % 97 AS amount FROM range(${rows}) t(i)) TO '${left}' (HEADER)`,
    );
    await duck.run(
      `COPY (SELECT CASE WHEN i % 50 = 1 THEN i - 1 ELSE i END AS id, 'name ' || i AS name FROM range(${rows}) t(i)) TO '${right}' (HEADER)`,
    );
  }
  const run = (name: string) =>
    runSide<{
      seconds: number;
      peakMb: number;
      innerJoinRows: number;
      orphans: number;
    }>(import.meta.url, name, [String(rows)]);
  const ours = run('groundwork');
  const theirs = run('duckdb');
  if (ours.innerJoinRows !== theirs.innerJoinRows || ours.orphans !== theirs.orphans)
    throw new Error(`answers differ: ${JSON.stringify({ ours, theirs })}`);
  process.stdout.write(
    `${JSON.stringify({ rows, groundwork: ours, duckdb: theirs, wall: (ours.seconds / theirs.seconds).toFixed(2), memory: (ours.peakMb / theirs.peakMb).toFixed(2) })}\n`,
  );
}
