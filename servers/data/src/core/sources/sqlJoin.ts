// join_check inside one database, for two tables of it: each side's keys grouped (count, first row), the
// groups full-outer-joined, and every figure of the answer read off that join — the same semantics as the
// scan (joinCheck.ts): trimmed on request, '' and NULL are null, a null key joins nothing unless nulls are
// 'equal'. For 'equal', a null key is grouped as '' (which no real key is, '' being null) so the join stays
// an equi-join, which every database can run as a FULL OUTER JOIN.
import {
  bucketOf,
  cardinalityOf,
  type JoinCheck,
  type JoinQuery,
  type JoinSide,
  type KeySample,
  matchBuckets,
} from '../joinCheck.js';
import type { ScanControl } from '../scanOptions.js';
import type { SqlDatabase } from './sqlDatabase.js';
import type { SqlSource } from './sqlSource.js';

export async function checkJoinInDatabase(
  database: SqlDatabase,
  left: SqlSource,
  right: SqlSource,
  query: JoinQuery,
  control: ScanControl,
): Promise<JoinCheck> {
  const signal = control.signal;
  const run = (sql: string) => database.query(sql, [], signal);
  const nullsEqual = query.comparison.nulls === 'equal';
  const keys = query.on.map((_, k) => `k${k}`);
  const keyList = keys.join(', ');
  const anyNull = keys.map((key) => `${key} IS NULL`).join(' OR ');
  const raw = [
    left.keyed(
      query.on.map((pair) => pair.left),
      query.comparison,
    ),
    right.keyed(
      query.on.map((pair) => pair.right),
      query.comparison,
    ),
  ] as const;
  const grouped = (keyed: string) =>
    nullsEqual
      ? `SELECT ${keys.map((key) => `COALESCE(${key}, '') AS ${key}`).join(', ')}, COUNT(*) AS c, MIN(rn) AS f FROM (${keyed}) s GROUP BY ${keys.map((key) => `COALESCE(${key}, '')`).join(', ')}`
      : `SELECT ${keyList}, COUNT(*) AS c, MIN(rn) AS f FROM (${keyed}) s WHERE NOT (${anyNull}) GROUP BY ${keyList}`;
  const joined = `WITH gl AS (${grouped(raw[0])}), gr AS (${grouped(raw[1])}),
    j AS (SELECT ${keys.map((key) => `l.${key} AS l${key}, r.${key} AS r${key}`).join(', ')},
                 l.c AS lc, l.f AS lf, r.c AS rc, r.f AS rf
          FROM gl l FULL OUTER JOIN gr r ON ${keys.map((key) => `l.${key} = r.${key}`).join(' AND ')})`;

  const [[matchedKeys, innerJoinRows, leftMany, rightMany]] = (await run(
    `${joined} SELECT COALESCE(SUM(CASE WHEN lc IS NOT NULL AND rc IS NOT NULL THEN 1 ELSE 0 END), 0),
       COALESCE(SUM(COALESCE(lc, 0) * COALESCE(rc, 0)), 0),
       COALESCE(MAX(CASE WHEN rc IS NOT NULL AND lc > 1 THEN 1 ELSE 0 END), 0),
       COALESCE(MAX(CASE WHEN lc IS NOT NULL AND rc > 1 THEN 1 ELSE 0 END), 0)
     FROM j`,
  )) as [[unknown, unknown, unknown, unknown]];

  let truncated = false;
  const side = async (s: 'l' | 'r', o: 'l' | 'r', keyed: string, source: SqlSource): Promise<JoinSide> => {
    const [[rows, nulls]] = (await run(
      `SELECT COUNT(*), COALESCE(SUM(CASE WHEN ${anyNull} THEN 1 ELSE 0 END), 0) FROM (${keyed}) s`,
    )) as [[unknown, unknown]];
    const [[distinctKeys, duplicateKeys, matchedRows, orphanRows, orphanKeys, maxMatches]] = (await run(
      `${joined} SELECT COUNT(${s}c), COALESCE(SUM(CASE WHEN ${s}c > 1 THEN 1 ELSE 0 END), 0),
         COALESCE(SUM(CASE WHEN ${o}c IS NOT NULL THEN ${s}c ELSE 0 END), 0),
         COALESCE(SUM(CASE WHEN ${o}c IS NULL THEN ${s}c ELSE 0 END), 0),
         COALESCE(SUM(CASE WHEN ${s}c IS NOT NULL AND ${o}c IS NULL THEN 1 ELSE 0 END), 0),
         COALESCE(MAX(CASE WHEN ${s}c IS NOT NULL THEN COALESCE(${o}c, 0) END), 0)
       FROM j`,
    )) as [[unknown, unknown, unknown, unknown, unknown, unknown]];
    const perMatches = await run(
      `${joined} SELECT COALESCE(${o}c, 0) AS m, SUM(${s}c) FROM j WHERE ${s}c IS NOT NULL GROUP BY COALESCE(${o}c, 0)`,
    );
    const buckets: number[] = [];
    for (const [m, n] of perMatches) {
      const b = bucketOf(Number(m));
      buckets[b] = (buckets[b] ?? 0) + Number(n);
    }
    const samples = async (where: string, order: string): Promise<KeySample[]> => {
      const found = await run(
        `${joined} SELECT ${keys.map((key) => `${s}${key}`).join(', ')}, ${s}c, ${s}f FROM j WHERE ${where} ORDER BY ${order} LIMIT ${query.samples + 1}`,
      );
      if (found.length > query.samples) truncated = true;
      const listed = found.slice(0, query.samples).map((row) => ({
        values: keys.map((_, k) => {
          const value = row[k] === null || row[k] === undefined ? null : String(row[k]);
          return nullsEqual && value === '' ? null : value;
        }),
        count: Number(row[keys.length]),
        rows: [] as number[],
        lines: [] as number[],
      }));
      await source.fillRows(listed, keyed, query.rowsPerSample, signal);
      if (listed.some((sample) => sample.count > sample.rows.length)) truncated = true;
      return listed;
    };
    return {
      rows: Number(rows),
      nullKeys: nullsEqual ? 0 : Number(nulls),
      distinctKeys: Number(distinctKeys),
      duplicateKeys: Number(duplicateKeys),
      matchedRows: Number(matchedRows),
      orphanRows: Number(orphanRows),
      orphanKeys: Number(orphanKeys),
      maxMatches: Number(maxMatches),
      matchesPerRow: matchBuckets(buckets),
      orphans: await samples(`${s}c IS NOT NULL AND ${o}c IS NULL`, `${s}f`),
      duplicates: await samples(`${s}c > 1 AND ${o}c IS NOT NULL`, `${s}c DESC, ${s}f`),
    };
  };
  const leftSide = await side('l', 'r', raw[0], left);
  control.onProgress?.(1, 2, 'rows', 'checking the join in the database');
  const rightSide = await side('r', 'l', raw[1], right);
  control.onProgress?.(2, 2, 'rows', 'done');
  return {
    cardinality: cardinalityOf(Number(leftMany) > 0, Number(rightMany) > 0),
    matchedKeys: Number(matchedKeys),
    innerJoinRows: Number(innerJoinRows),
    left: leftSide,
    right: rightSide,
    spilled: false,
    truncated,
  };
}
