import { DomainError } from '@groundwork/mcp-common/domainError';
import { describe, expect, it } from 'vitest';
import { scanAll, tempFile } from '../../testing/dataFiles.js';
import { DEFAULT_COMPARISON } from '../scanOptions.js';
import { openCsvSource } from './csvSource.js';

async function records(content: string, options = {}, gzip = false, comparison = DEFAULT_COMPARISON) {
  const source = await openCsvSource(tempFile(gzip ? 'data.csv.gz' : 'data.csv', content, { gzip }), options);
  return { columns: source.columns, records: await scanAll(source, source.columns, comparison) };
}

describe('delimited text reader', () => {
  it('reads quoted fields with doubled quotes, delimiters and line breaks inside', async () => {
    const { columns, records: rows } = await records('a,b\n"x, y","say ""hi"""\n"two\nlines",z\n');
    expect(columns).toEqual(['a', 'b']);
    expect(rows.map((r) => r.values)).toEqual([
      ['x, y', 'say "hi"'],
      ['two\nlines', 'z'],
    ]);
  });

  it('numbers rows from 1 after the header and gives the physical line each starts on', async () => {
    const { records: rows } = await records('a,b\n"multi\nline\ntext",1\n2,3\n');
    expect(rows.map((r) => [r.row, r.line])).toEqual([
      [1, 2],
      [2, 5],
    ]);
  });

  it('accepts CRLF, LF and mixed line endings, including CRLF inside quotes', async () => {
    const { records: rows } = await records('a,b\r\n1,"x\r\ny"\n2,z\r\n3,w');
    expect(rows.map((r) => r.values)).toEqual([
      ['1', 'x\r\ny'],
      ['2', 'z'],
      ['3', 'w'],
    ]);
    expect(rows.map((r) => r.line)).toEqual([2, 4, 5]);
  });

  it('strips a UTF-8 byte order mark from the first header name', async () => {
    const { columns } = await records('\uFEFFid,name\n1,a\n');
    expect(columns).toEqual(['id', 'name']);
  });

  it('reads empty fields (quoted or not) as nulls and keeps a trailing empty field', async () => {
    const { records: rows } = await records('a,b,c\n,"",x\n1,2,\n');
    expect(rows.map((r) => r.values)).toEqual([
      [null, null, 'x'],
      ['1', '2', null],
    ]);
  });

  it('reads the last record without a final newline', async () => {
    const { records: rows } = await records('a\n1\n2');
    expect(rows.map((r) => r.values[0])).toEqual(['1', '2']);
  });

  it('skips blank lines between records', async () => {
    const { records: rows } = await records('a,b\n1,2\n\n3,4\n');
    expect(rows.map((r) => r.values)).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it.each([
    ['semicolons', 'a;b;c\n1;2;3\n', ';'],
    ['tabs', 'a\tb\n1\t2\n', '\t'],
    ['pipes', 'a|b\n1|"x|y"\n', '|'],
    ['commas despite semicolons in quotes', 'a,b\n"x;y;z",1\n', ','],
  ])('sniffs %s as the delimiter', async (_name, content, delimiter) => {
    const { columns, records: rows } = await records(content);
    expect(columns.length).toBe(content.split('\n')[0]!.split(delimiter).length);
    expect(rows[0]!.values.length).toBe(columns.length);
  });

  it('uses a given delimiter and quote', async () => {
    const { records: rows } = await records("a;b\n'x;y';'it''s'\n", { delimiter: ';', quote: "'" });
    expect(rows[0]!.values).toEqual(['x;y', "it's"]);
  });

  it('takes the header from header_row and skips the records above it', async () => {
    const { columns, records: rows } = await records('exported by tool\nid,name\n1,a\n', {
      headerRow: 1,
      allowRagged: true,
    });
    expect(columns).toEqual(['id', 'name']);
    expect(rows).toEqual([{ row: 1, line: 3, values: ['1', 'a'] }]);
  });

  it('names a ragged record and its line in a clear error', async () => {
    await expect(records('a,b\n1,2\n"x\ny",2,3\n')).rejects.toThrow(
      /Record 2 \(line 3\) has 3 field\(s\) but the header has 2/,
    );
  });

  it('reads ragged records with allow_ragged: missing fields are nulls', async () => {
    const { records: rows } = await records('a,b,c\n1\n1,2,3,4\n', { allowRagged: true });
    expect(rows.map((r) => r.values)).toEqual([
      ['1', null, null],
      ['1', '2', '3'],
    ]);
  });

  it('reports an unclosed quote with the line where its field starts', async () => {
    await expect(records('a,b\n1,2\n3,"open\n')).rejects.toThrow(/starts on line 3 is never closed/);
  });

  it('reports characters after a closing quote as malformed', async () => {
    const error = await records('a,b\n"x"y,2\n').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('MALFORMED_CSV');
  });

  it('reads gzip-compressed files by their magic bytes', async () => {
    const { records: rows } = await records('a,b\n1,"x\ny"\n', {}, true);
    expect(rows.map((r) => r.values)).toEqual([['1', 'x\ny']]);
  });

  it('gives empty and repeated header names unique names', async () => {
    const { columns } = await records('id,,id\n1,2,3\n');
    expect(columns).toEqual(['id', 'column_2', 'id_2']);
  });

  it("never gives a generated name that shadows one of the file's own", async () => {
    expect((await records('a,a,a_2,,column_4\n1,2,3,4,5\n')).columns).toEqual([
      'a',
      'a_3',
      'a_2',
      'column_4_2',
      'column_4',
    ]);
  });

  it('trims only ASCII white space, in headers and values', async () => {
    const { columns, records: rows } = await records(' id\u00a0,name\n1, x\u3000 \n', {}, false, {
      ...DEFAULT_COMPARISON,
      trim: true,
    });
    expect(columns).toEqual(['id\u00a0', 'name']);
    expect(rows[0]!.values).toEqual(['1', 'x\u3000']);
  });

  it('reads records that straddle its read chunks', async () => {
    const long = 'x'.repeat(3 * 1024 * 1024);
    const { records: rows } = await records(`a,b\n"${long}\n""q""",1\n2,3\n`);
    expect(rows.map((r) => r.values[0]!.length)).toEqual([long.length + 4, 1]);
    expect(rows[1]!.line).toBe(4);
  });
});
