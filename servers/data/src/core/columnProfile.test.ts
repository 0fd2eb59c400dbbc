import { describe, expect, it } from 'vitest';
import { tempFile } from '../testing/dataFiles.js';
import { profileColumns } from './columnProfile.js';
import { DEFAULT_COMPARISON } from './scanOptions.js';
import { openCsvSource } from './sources/csvSource.js';

const CONTENT = [
  'n,x,flag,day,at,label,blank',
  '10,1.5,true,2024-01-02,2024-01-02T10:00:00Z,b,',
  '-3,2,false,2024-03-01,2024-01-02 11:00,a,',
  '7,1e3,TRUE,2023-12-31,2024-01-03T00:00:00+01:00,b,',
  ',,,,,,',
].join('\n');

async function profile(exactDistinctBound = 1000) {
  const source = await openCsvSource(tempFile('profile.csv', CONTENT), {});
  return profileColumns(source, { comparison: DEFAULT_COMPARISON, exactDistinctBound, topValues: 2 });
}

describe('profileColumns', () => {
  it('infers integer, number, boolean, date, datetime, string and empty columns', async () => {
    const { rows, columns } = await profile();
    expect(rows).toBe(4);
    expect(columns.map((column) => [column.name, column.type])).toEqual([
      ['n', 'integer'],
      ['x', 'number'],
      ['flag', 'boolean'],
      ['day', 'date'],
      ['at', 'datetime'],
      ['label', 'string'],
      ['blank', 'empty'],
    ]);
  });

  it('compares numbers numerically for min and max, text by text', async () => {
    const { columns } = await profile();
    expect(columns[0]).toMatchObject({
      min: '-3',
      max: '10',
      nulls: 1,
      distinct: 3,
      minLength: 1,
      maxLength: 2,
    });
    expect(columns[1]).toMatchObject({ min: '1.5', max: '1e3' });
    expect(columns[5]).toMatchObject({
      min: 'a',
      max: 'b',
      topValues: [
        { value: 'b', count: 2 },
        { value: 'a', count: 1 },
      ],
    });
    expect(columns[6]).toMatchObject({ nulls: 4, distinct: 0 });
    expect(columns[6]!.min).toBeUndefined();
  });

  it('labels distinct counts beyond the exact bound as estimates with their error', async () => {
    const lines = ['v'];
    for (let i = 0; i < 50000; i++) lines.push(`value-${i}`);
    const source = await openCsvSource(tempFile('many.csv', lines.join('\n')), {});
    const { columns } = await profileColumns(source, {
      comparison: DEFAULT_COMPARISON,
      exactDistinctBound: 1000,
      topValues: 1,
    });
    const column = columns[0]!;
    expect(column.distinctEstimated).toBe(true);
    expect(column.distinctError).toBeCloseTo(0.0081, 4);
    expect(Math.abs(column.distinct - 50000) / 50000).toBeLessThan(4 * column.distinctError!);
    expect(column.topValuesExact).toBe(false);
  });

  it('types no impossible day as a date, and orders big numbers and text exactly', async () => {
    const content = [
      'day,at,amount,big,word',
      '2024-02-29,2024-02-29 23:59:59,99999999999999999.98,9007199254740993,\uffff',
      '2021-02-29,2024-01-01 24:00,99999999999999999.99,9007199254740992,\u{1f600}',
      '2023-04-30,2024-01-01T00:00Z,1e-400,-9007199254740993,a',
    ].join('\n');
    const source = await openCsvSource(tempFile('exact.csv', content), {});
    const { columns } = await profileColumns(source, {
      comparison: DEFAULT_COMPARISON,
      exactDistinctBound: 100,
      topValues: 0,
    });
    expect(columns.map((column) => column.type)).toEqual(['string', 'string', 'number', 'integer', 'string']);
    expect(columns[2]).toMatchObject({ min: '1e-400', max: '99999999999999999.99' });
    expect(columns[3]).toMatchObject({ min: '-9007199254740993', max: '9007199254740993' });
    // Code point order (U+1F600 after U+FFFF) and lengths in code points.
    expect(columns[4]).toMatchObject({ min: 'a', max: '\u{1f600}', minLength: 1, maxLength: 1 });
  });
});
