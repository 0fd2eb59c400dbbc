import { seededRandom } from '@groundwork/mcp-testkit';
import { describe, expect, it } from 'vitest';
import { decodeXmlText, XmlBodySplitter } from './xmlBodySplitter.js';

function split(document: string, chunkSize: number): { markup: string; bodies: string } {
  let markup = '';
  let bodies = '';
  const splitter = new XmlBodySplitter({
    markup: (text) => {
      markup += text;
    },
    body: (text) => {
      bodies += `${text}|`;
    },
  });
  const bytes = Buffer.from(document, 'utf8');
  let pending = Buffer.alloc(0);
  for (let start = 0; start < bytes.length; start += chunkSize) {
    const buffer = Buffer.concat([pending, bytes.subarray(start, start + chunkSize)]);
    pending = Buffer.from(buffer.subarray(splitter.feed(buffer, false)));
  }
  splitter.feed(pending, true);
  return { markup, bodies: bodies.replace(/\|/g, '') };
}

const DOCUMENT = [
  '<?xml version="1.0"?><testsuite name="ünïcode ✓">',
  '<testcase name="a &gt; b" classname="c"><failure message="x > y">héllo &amp; &#x263A; <![CDATA[<raw> ]] ]]> tail<!-- note --></failure>',
  '<system-out>out ✓</system-out></testcase><testcase name="self"><skipped/></testcase></testsuite>',
].join('');

describe('XmlBodySplitter', () => {
  it('hands the parser only markup and decodes bodies, whatever the chunk boundaries', () => {
    const whole = split(DOCUMENT, DOCUMENT.length * 4);
    expect(whole.markup).toBe(
      '<?xml version="1.0"?><testsuite name="ünïcode ✓"><testcase name="a &gt; b" classname="c"><failure message="x > y"></failure><system-out></system-out></testcase><testcase name="self"><skipped/></testcase></testsuite>',
    );
    expect(whole.bodies).toBe('héllo & ☺ <raw> ]]  tailout ✓');
    for (const size of [1, 2, 3, 7, 16]) expect(split(DOCUMENT, size)).toEqual(whole);
  });

  it('refuses a DOCTYPE before the parser sees it', () => {
    expect(() => split('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x/>', 64)).toThrow(
      /declares a DOCTYPE/,
    );
  });
});

describe('XmlBodySplitter without a body target', () => {
  it('leaves output elements out of the markup entirely, whatever the chunk boundaries', () => {
    for (const size of [1, 5, 4096]) {
      let markup = '';
      const splitter = new XmlBodySplitter({
        markup: (text) => {
          markup += text;
        },
      });
      const bytes = Buffer.from(DOCUMENT, 'utf8');
      let pending = Buffer.alloc(0);
      for (let start = 0; start < bytes.length; start += size) {
        const buffer = Buffer.concat([pending, bytes.subarray(start, start + size)]);
        pending = Buffer.from(buffer.subarray(splitter.feed(buffer, false)));
      }
      splitter.feed(pending, true);
      expect(markup).toBe(
        '<?xml version="1.0"?><testsuite name="ünïcode ✓"><testcase name="a &gt; b" classname="c"><failure message="x > y"></failure></testcase><testcase name="self"><skipped/></testcase></testsuite>',
      );
    }
  });
});

describe('decodeXmlText', () => {
  it('resolves the predefined and numeric references and normalizes line ends', () => {
    expect(decodeXmlText('a &lt;b&gt; &quot;c&quot; &apos;d&apos; &#65;&#x42;\r\ne\rf')).toBe(
      'a <b> "c" \'d\' AB\ne\nf',
    );
  });
});

describe('decodeXmlText against the replace it took over from', () => {
  const REFERENCE = /&(?:(lt|gt|amp|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/g;
  const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  const byReplace = (raw: string) =>
    raw
      .replace(/\r\n?/g, '\n')
      .replace(REFERENCE, (match, named?: string, decimal?: string, hex?: string) => {
        if (named !== undefined) return NAMED[named] ?? match;
        const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : match;
      });

  it('decodes 20,000 random texts of reference pieces exactly as the replace did', () => {
    const random = seededRandom(11);
    const pieces = [
      '&',
      '#',
      'x',
      ';',
      'lt',
      'gt',
      'amp',
      'quot',
      'apos',
      '1',
      '65',
      'fF',
      'A',
      '\r',
      '\n',
      'z',
      '1114111',
      '1114112',
      '0'.repeat(30),
    ];
    const differing: string[] = [];
    for (let index = 0; index < 20_000; index += 1) {
      let raw = '';
      for (let length = Math.floor(random() * 30); length > 0; length -= 1)
        raw += pieces[Math.floor(random() * pieces.length)];
      if (decodeXmlText(raw) !== byReplace(raw)) differing.push(raw);
    }
    expect(differing.slice(0, 5)).toEqual([]);
  });
});
