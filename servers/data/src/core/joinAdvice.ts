// The answer of a join check in a few sentences a model can act on: what the inner join gives, which side
// multiplies rows and where, which rows find no partner.
import type { JoinCheck, JoinSide, KeySample } from './joinCheck.js';

export interface JoinNames {
  left: string;
  right: string;
  /** The key as written, e.g. "customer_id = id". */
  on: string;
  leftKey: string;
  rightKey: string;
  /** For a side of many files: the file a row is in and its row there (TabularSource.locate). */
  locateLeft?: Locate | undefined;
  locateRight?: Locate | undefined;
}

type Locate = (row: number) => { file: string; row: number } | undefined;

const number = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, noun: string) => `${number(n)} ${noun}${n === 1 ? '' : 's'}`;

function rowsOf(sample: KeySample | undefined, locate?: Locate): string {
  if (sample === undefined) return '';
  const where = (row: number) => {
    const place = locate?.(row);
    return place === undefined ? String(row) : `${place.row} of ${place.file}`;
  };
  const shown = sample.values.map((value) => (value === null ? 'null' : JSON.stringify(value))).join(', ');
  const more = sample.count > sample.rows.length ? ' …' : '';
  const listed = sample.rows.length === 1 && sample.count === 1 ? 'row' : 'rows';
  return ` (${shown}: ${plural(sample.count, 'row')}, ${listed} ${sample.rows.map(where).join(', ')}${more})`;
}

export function joinAdvice(check: JoinCheck, names: JoinNames): string {
  const { left, right } = check;
  const sentences: string[] = [
    `Joining ${names.left} (${number(left.rows)} rows) to ${names.right} (${number(right.rows)} rows) on ${names.on} gives ${number(check.innerJoinRows)} rows (inner join; ${check.cardinality}, ${number(check.matchedKeys)} keys in both).`,
  ];
  const multiply = (
    side: JoinSide,
    sideName: string,
    otherName: string,
    key: string,
    other: JoinSide,
    locate: Locate | undefined,
  ) => {
    if (side.duplicates.length === 0) return;
    const multiplied = other.matchesPerRow
      .filter((bucket) => bucket.matches !== '0' && bucket.matches !== '1')
      .reduce((n, bucket) => n + bucket.rows, 0);
    sentences.push(
      `${sideName} has ${number(side.duplicateKeys)} duplicated ${key} value(s)${rowsOf(side.duplicates[0], locate)}, so ${number(multiplied)} ${otherName} row(s) each appear up to ${number(other.maxMatches)} times; deduplicate or aggregate ${sideName} on ${key} first if each ${otherName} row must appear once.`,
    );
  };
  multiply(right, names.right, names.left, names.rightKey, left, names.locateRight);
  multiply(left, names.left, names.right, names.leftKey, right, names.locateLeft);
  if (check.cardinality === '1:1' && left.duplicateKeys + right.duplicateKeys === 0)
    sentences.push(`${names.on} is unique on both sides: the join never multiplies rows.`);
  const orphans = (side: JoinSide, sideName: string, otherName: string, locate: Locate | undefined) => {
    if (side.orphanRows === 0) return;
    sentences.push(
      `${number(side.orphanRows)} ${sideName} row(s) (${number(side.orphanKeys)} key(s)) have no partner in ${otherName}${rowsOf(side.orphans[0], locate)}: an inner join drops them, an outer join keeps them with nulls.`,
    );
  };
  orphans(left, names.left, names.right, names.locateLeft);
  orphans(right, names.right, names.left, names.locateRight);
  for (const [side, sideName, key] of [
    [left, names.left, names.leftKey],
    [right, names.right, names.rightKey],
  ] as const) {
    if (side.nullKeys > 0)
      sentences.push(`${number(side.nullKeys)} ${sideName} row(s) have a null ${key} and match nothing.`);
  }
  return sentences.join(' ');
}
