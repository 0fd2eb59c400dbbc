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
