// Uniqueness of a key over 100 Parquet files (a glob) against DuckDB's queries that give the same answer
// (rows, distinct values, duplicated values, the largest groups with their first rows, and how many duplicated
// values lie within one file or across files), each side in its own child process: wall time and peak memory.
// `npx tsx bench/multiFileBench.ts [rows per file]` (default 20,000); data generated once into /tmp/gw-multi.
import { existsSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { DuckDBInstance } from '@duckdb/node-api';
import { benchRole, peakMb, runSide } from './sideProcess.js';

const FILES = 100;
const perFile = Number(process.argv[2] ?? 20_000);
const dir = `/tmp/gw-multi/${perFile}`;
const role = benchRole;

interface Answer {
  seconds: number;
  peakMb: number;
  rows: number;
  distinct: number;
  duplicateValues: number;
  acrossFiles: number;
}

if (role === 'groundwork') {
  const { ConfinedDirectory } = await import('@groundwork/mcp-common/files');
  const { openSource } = await import('../src/core/sources/openSource.js');
  const { analyzeDuplicates } = await import('../src/core/duplicateAnalysis.js');
  const start = performance.now();
  const folder = await ConfinedDirectory.confinedTo(dir);
  const source = await openSource({
    kind: 'files',
    folder,
    pattern: 'part-*.parquet',
    given: 'part-*.parquet',
    csv: {},
  });
  const analysis = await analyzeDuplicates(source, {
    columns: ['id'],
    comparison: { nulls: 'distinct', trim: false, caseInsensitive: false },
    limit: 10,
    rowsPerGroup: 10,
  });
  await folder.close();
  const answer: Answer = {
    seconds: (performance.now() - start) / 1000,
    peakMb: peakMb(),
    rows: analysis.rows,
    distinct: analysis.distinct,
    duplicateValues: analysis.duplicateValues,
    acrossFiles: analysis.fileCollisions?.valuesAcrossFiles ?? -1,
  };
  process.stdout.write(JSON.stringify(answer));
} else if (role === 'duckdb-counts') {
  // Only the counts (no rows of the groups, no files): less than uniqueness_check answers, for scale.
  const start = performance.now();
  const instance = await DuckDBInstance.create(':memory:', { threads: String(availableParallelism()) });
  const duck = await instance.connect();
  const result = await duck.runAndReadAll(`
    WITH g AS (SELECT id AS k, count(*) AS c FROM read_parquet('${dir}/part-*.parquet') GROUP BY k)
    SELECT sum(c)::BIGINT, count(*) FILTER (WHERE k IS NOT NULL)::BIGINT,
           count(*) FILTER (WHERE c > 1 AND k IS NOT NULL)::BIGINT FROM g`);
  const [rows, distinct, duplicates] = result.getRows()[0]!;
  duck.closeSync();
  const answer: Answer = {
    seconds: (performance.now() - start) / 1000,
    peakMb: peakMb(),
    rows: Number(rows),
    distinct: Number(distinct),
    duplicateValues: Number(duplicates),
    acrossFiles: -1,
  };
  process.stdout.write(JSON.stringify(answer));
} else if (role === 'duckdb') {
  const start = performance.now();
  const instance = await DuckDBInstance.create(':memory:', { threads: String(availableParallelism()) });
  const duck = await instance.connect();
  const result = await duck.runAndReadAll(`
    WITH t AS (SELECT id AS k, filename, row_number() OVER () AS rn FROM read_parquet('${dir}/part-*.parquet', filename = true)),
    g AS MATERIALIZED (SELECT k, count(*) AS c, count(DISTINCT filename) AS files, min(rn) AS first FROM t GROUP BY k),
    top AS (SELECT k, c, first FROM g WHERE c > 1 AND k IS NOT NULL ORDER BY c DESC, first LIMIT 10)
    SELECT (SELECT sum(c) FROM g)::BIGINT,
           (SELECT count(*) FROM g WHERE k IS NOT NULL)::BIGINT,
           (SELECT count(*) FROM g WHERE c > 1 AND k IS NOT NULL)::BIGINT,
           (SELECT count(*) FROM g WHERE files > 1 AND k IS NOT NULL)::BIGINT,
           (SELECT list(rows) FROM (SELECT top.k, (list(rn ORDER BY rn))[1:10] AS rows
              FROM top JOIN t ON t.k = top.k GROUP BY top.k))`);
  const [rows, distinct, duplicates, across] = result.getRows()[0]!;
  duck.closeSync();
  const answer: Answer = {
    seconds: (performance.now() - start) / 1000,
    peakMb: peakMb(),
    rows: Number(rows),
    distinct: Number(distinct),
    duplicateValues: Number(duplicates),
    acrossFiles: Number(across),
  };
  process.stdout.write(JSON.stringify(answer));
} else {
  if (!existsSync(`${dir}/part-${FILES - 1}.parquet`)) {
    mkdirSync(dir, { recursive: true });
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    // File f holds ids f*perFile*0.99 onward: unique within each file, 1% shared with the next file.
    for (let f = 0; f < FILES; f++) {
      const first = Math.round(f * perFile * 0.99);
      await duck.run(
        `COPY (SELECT ${first} + i AS id, 'event ' || i AS note, i % 7 AS kind FROM range(${perFile}) t(i)) TO '${dir}/part-${f}.parquet' (FORMAT parquet)`,
      );
    }
    duck.closeSync();
  }
  const run = (name: string) => runSide<Answer>(import.meta.url, name, [String(perFile)]);
  const ours = run('groundwork');
  const theirs = run('duckdb');
  const counts = run('duckdb-counts');
  for (const key of ['rows', 'distinct', 'duplicateValues', 'acrossFiles'] as const) {
    if (ours[key] !== theirs[key]) throw new Error(`answers differ: ${JSON.stringify({ ours, theirs })}`);
  }
  process.stdout.write(
    `${JSON.stringify({ files: FILES, rowsPerFile: perFile, groundwork: ours, duckdb: theirs, wall: (ours.seconds / theirs.seconds).toFixed(2), memory: (ours.peakMb / theirs.peakMb).toFixed(2), duckdbCountsOnly: counts, wallVsCountsOnly: (ours.seconds / counts.seconds).toFixed(2) })}\n`,
  );
}
