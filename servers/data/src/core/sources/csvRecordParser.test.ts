import { describe, expect, it } from 'vitest';
import { CsvRecordParser } from './csvRecordParser.js';

/** Parses `text` fed in two pieces split at `split`, as a stream would deliver it. */
function parseInPieces(text: string, split: number): string[][] {
  const bytes = Buffer.from(text);
  const parser = new CsvRecordParser({ delimiter: 44, quote: 34 });
  const out: string[][] = [];
  const collect = (record: import('./csvRecordParser.js').CsvRecord): undefined => {
    out.push(Array.from({ length: record.count }, (_, f) => record.decode(f, 34)));
  };
  const used = parser.parse(bytes.subarray(0, split), false, collect);
  parser.parse(Buffer.concat([bytes.subarray(used, split), bytes.subarray(split)]), true, collect);
  return out;
}

describe('CsvRecordParser', () => {
  const text = 'a,"b ""q"", c"\r\n"x\r\ny",\n,"",z\rlast';
  const expected = [['a', 'b "q", c'], ['x\r\ny', ''], ['', '', 'z'], ['last']];

  it('gives the same records wherever the input is split into chunks', () => {
    for (let split = 0; split <= Buffer.byteLength(text); split++) {
      expect(parseInPieces(text, split), `split at ${split}`).toEqual(expected);
    }
  });
});
