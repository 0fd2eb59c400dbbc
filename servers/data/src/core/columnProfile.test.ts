import { describe, expect, it } from 'vitest';
import { tempFile } from '../testSupport.js';
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
});
