// A Latin-1 file read as UTF-8 (the default): bytes that do not decode compare as the bytes they are.
import { describe, expect, it } from 'vitest';
import { tempFile } from '../testing/dataFiles.js';
import { profileColumns } from './columnProfile.js';
import { analyzeDuplicates } from './duplicateAnalysis.js';
import { findKeys } from './keyDiscovery.js';
import { boundedValue } from './resultBounds.js';
import { type Comparison, DEFAULT_COMPARISON } from './scanOptions.js';
import { openCsvSource } from './sources/csvSource.js';
import { openJsonLinesSource } from './sources/jsonLinesSource.js';

// café, cafè, CAFÉ in Latin-1: é is 0xE9, è 0xE8, É 0xC9 — none of them valid UTF-8 on its own.
const LATIN1 = Buffer.concat([
  Buffer.from('id,word\n1,caf'),
  Buffer.from([0xe9]),
  Buffer.from('\n2,caf'),
  Buffer.from([0xe8]),
  Buffer.from('\n3,CAF'),
  Buffer.from([0xc9]),
  Buffer.from('\n'),
]);

const COMPARISONS: Comparison[] = [
  DEFAULT_COMPARISON,
  { ...DEFAULT_COMPARISON, caseInsensitive: true },
  { ...DEFAULT_COMPARISON, trim: true },
  { nulls: 'equal', trim: true, caseInsensitive: true },
];

describe('bytes that are not valid UTF-8', () => {
  for (const comparison of COMPARISONS) {
    it(`keep café and cafè apart (${JSON.stringify(comparison)})`, async () => {
      const source = await openCsvSource(tempFile('latin1.csv', LATIN1), {});
      const result = await analyzeDuplicates(source, {
        columns: ['word'],
        comparison,
        limit: 10,
        rowsPerGroup: 10,
      });
      expect(result).toMatchObject({ rows: 3, distinct: 3, duplicateValues: 0, groups: [] });
      expect(source.warnings[0]).toMatch(/not valid UTF-8 \(first at line 2\)/);
    });
  }

  it('are distinct values in profile_columns, shown as U+FFFD', async () => {
    for (const comparison of COMPARISONS) {
      const source = await openCsvSource(tempFile('latin1.csv', LATIN1), {});
      const { columns } = await profileColumns(source, {
        comparison,
        exactDistinctBound: 1000,
        topValues: 5,
        columns: ['word'],
      });
      expect(columns[0]!.distinct, JSON.stringify(comparison)).toBe(3);
      expect(columns[0]!.topValues.map((top) => top.count)).toEqual([1, 1, 1]);
      expect(columns[0]!.topValues.map((top) => boundedValue(top.value)).sort()).toEqual(
        comparison.caseInsensitive
          ? ['caf\uFFFD', 'caf\uFFFD', 'caf\uFFFD']
          : ['CAF\uFFFD', 'caf\uFFFD', 'caf\uFFFD'],
      );
    }
  });

  it('leave a column a key in find_keys', async () => {
    const source = await openCsvSource(tempFile('latin1.csv', LATIN1), {});
    const { keys } = await findKeys(source, {
      maxColumns: 1,
      comparison: { ...DEFAULT_COMPARISON, caseInsensitive: true },
      maxViolatingRows: 0,
      limit: 10,
    });
    expect(keys.map((key) => key.columns)).toContainEqual(['word']);
  });

  it('still fold the case of the letters around them', async () => {
    const source = await openCsvSource(
      tempFile(
        'latin1.csv',
        Buffer.concat([
          Buffer.from('w\nX'),
          Buffer.from([0xe9]),
          Buffer.from('\nx'),
          Buffer.from([0xe9]),
          Buffer.from('\n'),
        ]),
      ),
      {},
    );
    const result = await analyzeDuplicates(source, {
      columns: ['w'],
      comparison: { ...DEFAULT_COMPARISON, caseInsensitive: true },
      limit: 10,
      rowsPerGroup: 10,
    });
    expect(result.groups).toHaveLength(1);
    expect(result.groups[0]!.rows).toEqual([1, 2]);
    expect(boundedValue(result.groups[0]!.values[0]!)).toBe('x\uFFFD');
  });

  it('in JSON Lines compare as bytes too', async () => {
    const lines = Buffer.concat([
      Buffer.from('{"w":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}\n{"w":"caf'),
      Buffer.from([0xe8]),
      Buffer.from('"}\n'),
    ]);
    const source = await openJsonLinesSource(tempFile('latin1.jsonl', lines));
    const result = await analyzeDuplicates(source, {
      columns: ['w'],
      comparison: { ...DEFAULT_COMPARISON, caseInsensitive: true },
      limit: 10,
      rowsPerGroup: 10,
    });
    expect(result).toMatchObject({ rows: 2, distinct: 2, groups: [] });
  });
});

describe('FieldHash', () => {
  it('hashes a string as the UTF-8 bytes it stands for, an escaped invalid byte as that byte', async () => {
    const { FieldHash } = await import('./fieldHash.js');
    const { decodeUtf8 } = await import('./sources/textEncoding.js');
    for (const bytes of [
      Buffer.from('plain'),
      Buffer.from('Tromsø 東京 😀'),
      Buffer.from([0x63, 0xe9, 0xf0, 0x9f, 0x41]),
    ]) {
      const fromBytes = new FieldHash();
      fromBytes.addBytes(bytes, 0, bytes.length, -1);
      const fromString = new FieldHash();
      fromString.addString(decodeUtf8(bytes, 0, bytes.length));
      expect([fromString.h1, fromString.h2]).toEqual([fromBytes.h1, fromBytes.h2]);
    }
  });
});
