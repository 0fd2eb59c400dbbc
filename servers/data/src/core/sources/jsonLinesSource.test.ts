import { describe, expect, it } from 'vitest';
import { scanAll, tempFile } from '../../testing/dataFiles.js';
import { openJsonLinesSource } from './jsonLinesSource.js';

describe('JSON Lines reader', () => {
  it('offers top-level keys and dotted paths into nested objects as columns', async () => {
    const file = tempFile(
      'data.jsonl',
      '{"id":1,"user":{"email":"a@x.io","address":{"city":"Oslo"}}}\n{"id":2}\n',
    );
    const source = await openJsonLinesSource(file);
    expect(source.columns).toEqual(['id', 'user', 'user.email', 'user.address', 'user.address.city']);
    const rows = await scanAll(source, ['id', 'user.address.city']);
    expect(rows).toEqual([
      { row: 1, line: 1, values: ['1', 'Oslo'] },
      { row: 2, line: 2, values: ['2', null] },
    ]);
  });

  it('numbers rows past blank lines and reads gzip', async () => {
    const file = tempFile('data.jsonl.gz', '\n{"a":"x"}\r\n\n{"a":null}', { gzip: true });
    const rows = await scanAll(await openJsonLinesSource(file));
    expect(rows).toEqual([
      { row: 1, line: 2, values: ['x'] },
      { row: 2, line: 4, values: [null] },
    ]);
  });

  it('names the line of malformed JSON', async () => {
    const file = tempFile('bad.jsonl', '{"a":1}\n{"a":2}\n{"a":\n');
    const source = await openJsonLinesSource(file).catch((error: unknown) => error);
    expect(String(source)).toMatch(/Line 3 is not valid JSON/);
  });

  it('rejects a line that is not an object', async () => {
    const file = tempFile('array.jsonl', '{"a":1}\n[1,2]\n');
    await expect(openJsonLinesSource(file)).rejects.toThrow(/Line 2 is not a JSON object/);
  });

  it('reads every number as the literal the file wrote, never through a double', async () => {
    const literals = [
      '9007199254740993',
      '9007199254740992',
      '1.50',
      '1.5',
      '1e2',
      '100',
      '-0',
      '0',
      '0.0000001',
      '12345678.123456789',
      '2.25',
      '-17',
      '123456789012345678901234567890',
      '0.1',
    ];
    const file = tempFile('numbers.jsonl', literals.map((n) => `{"n":${n},"s":"x"}`).join('\n'));
    const rows = await scanAll(await openJsonLinesSource(file), ['n']);
    expect(rows.map((row) => row.values[0])).toEqual(literals);
  });
});
