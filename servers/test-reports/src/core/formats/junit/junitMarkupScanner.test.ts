// The fast markup scanner against saxes (the oracle) on the same inputs: seeded JUnit-like markup, then the
// same with random damage, cut into random pieces. Wherever the scanner reads a document instead of giving
// up, saxes must read it without error and report exactly the same events.
import { seededRandom } from '@groundwork/mcp-testkit';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import {
  JUnitMarkupScanner,
  type MarkupHandlers,
  RecordAttributes,
  UnsupportedMarkup,
} from './junitMarkupScanner.js';
import { cleanXmlText } from './xmlTextCleaner.js';

type Event = ['open', string, Record<string, string>] | ['close', string] | ['text', string];
interface Outcome {
  events: Event[];
  /** saxes' first error, or the scanner giving up. */
  stopped?: string;
}

function recorder(events: Event[], withText: boolean): MarkupHandlers {
  return {
    openTag: (name, attributes) => {
      // Some values asked for first, as the parser asks (the scanner decodes a value only when asked),
      // then every one; each must read the same either way, and an absent one as undefined.
      const early = ['message', 'time', 'name', 'absent'].map((attribute) => attributes.get(attribute));
      const all = attributes.all();
      for (const [index, attribute] of ['message', 'time', 'name', 'absent'].entries())
        expect(early[index], attribute).toBe(Object.hasOwn(all, attribute) ? all[attribute] : undefined);
      events.push(['open', name, all]);
    },
    closeTag: (name) => events.push(['close', name]),
    ...(withText
      ? {
          text: (text: string) => {
            // Where one reader splits a run of text the other may not: compare runs.
            const last = events[events.length - 1];
            if (last?.[0] === 'text') last[1] += text;
            else events.push(['text', text]);
          },
        }
      : {}),
  };
}

function withSaxes(pieces: readonly string[], withText: boolean): Outcome {
  const events: Event[] = [];
  const handlers = recorder(events, withText);
  const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  let stopped: string | undefined;
  parser.on('error', (error) => {
    stopped ??= error.message;
  });
  parser.on('doctype', () => {
    stopped ??= 'doctype';
  });
  parser.on('opentag', (tag) => handlers.openTag(tag.name, new RecordAttributes(tag.attributes)));
  parser.on('closetag', (tag) => handlers.closeTag(tag.name));
  if (handlers.text !== undefined) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  try {
    for (const piece of pieces) parser.write(piece);
    parser.close();
  } catch (error) {
    stopped ??= String(error);
  }
  return { events, ...(stopped === undefined ? {} : { stopped }) };
}

function withScanner(pieces: readonly string[], withText: boolean): Outcome {
  const events: Event[] = [];
  const scanner = new JUnitMarkupScanner(recorder(events, withText));
  try {
    for (const piece of pieces) scanner.write(piece);
    scanner.close();
  } catch (error) {
    if (!(error instanceof UnsupportedMarkup)) throw error;
    return { events, stopped: error.message };
  }
  return { events };
}

/** A JUnit-like document of the kinds runners write, with the awkward values they put in attributes. */
function document(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const space = () => pick([' ', '\n', '\n    ', '\r\n  ', '\t', '']);
  const value = () =>
    pick([
      'plain',
      '',
      'a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;',
      'line one&#10;line two&#xA;',
      'tab\there and\r\nnew line',
      'unicode é 中文 😀',
      'emoji by reference &#x1F600; &#128512;',
      '1,234.5',
      "it's > that",
      'a/b > c />',
      'by reference: &#13;&#10;&#9;&#xD;&#xa; end',
      'a\u0001control character',
      '&amp;lt; not a tag &#x3C; but a reference',
      '\u00e9\u00e8 multi-byte \u4e2d at the end \u{1F600}',
      'com.acme.Feature$Inner',
      '[31mcoloured[0m',
    ]);
  const quoted = () => {
    const text = value();
    return text.includes("'") || random() < 0.7 ? `"${text}"` : `'${text}'`;
  };
  const attributes = (names: readonly string[]) =>
    names
      .filter(() => random() < 0.8)
      .map((name) => ` ${name}${pick(['=', ' = ', '=\n'])}${quoted()}`)
      .join('');
  const close = (name: string, body: string) =>
    body === '' && random() < 0.5 ? `${pick(['/>', ' />'])}` : `>${body}</${name}${pick(['', ' '])}>`;
  const testcase = () => {
    let body = '';
    if (random() < 0.3) body += `${space()}<failure${attributes(['message', 'type'])}${close('failure', '')}`;
    if (random() < 0.1) body += `${space()}<skipped${attributes(['message'])}/>`;
    if (random() < 0.1) body += `${space()}<!-- a comment - with dashes -->`;
    if (random() < 0.1) body += `${space()}<properties><property name="k" value=${quoted()}/></properties>`;
    return `${space()}<testcase${attributes(['name', 'classname', 'time', 'file', 'line'])}${close('testcase', body === '' ? '' : `${body}${space()}`)}`;
  };
  const suite = (depth: number): string => {
    let body = '';
    const count = Math.floor(random() * 4);
    for (let index = 0; index < count; index += 1) body += testcase();
    if (depth < 2 && random() < 0.3) body += suite(depth + 1);
    return `${space()}<testsuite${attributes(['name', 'tests', 'failures', 'time'])}${close('testsuite', body === '' ? '' : `${body}${space()}`)}`;
  };
  const declaration = pick([
    '',
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    "<?xml version='1.0'?>",
    '<?xml version="1.0" encoding="utf-8" standalone="yes"?>\r\n',
  ]);
  const root =
    random() < 0.5
      ? `<testsuites name=${quoted()}>${suite(0)}${suite(0)}\n</testsuites>`
      : suite(0).trimStart();
  return `${declaration}${random() < 0.2 ? '<!-- by a runner -->\n' : ''}${root}${pick(['', '\n', '\n<!-- end -->\n'])}`;
}

const DAMAGE = [
  '<',
  '>',
  '&',
  '"',
  "'",
  '/',
  '!',
  '?',
  '-',
  ']',
  ' ',
  '\r',
  '\n',
  'é',
  ';',
  '#',
  'x',
  '=',
  'a',
  '--',
  ']]>',
  '<!',
  '&#0;',
  '&#x;',
  '&foo;',
  '<![CDATA[x]]>',
  '<?pi?>',
  'ü',
];

/** Random edits, by code point (the parser's text comes from a UTF-8 decoder: no lone surrogates). */
function damaged(text: string, random: () => number): string {
  let result = Array.from(text);
  const edits = 1 + Math.floor(random() * 3);
  for (let edit = 0; edit < edits; edit += 1) {
    const at = Math.floor(random() * (result.length + 1));
    const roll = random();
    const insert = Array.from(DAMAGE[Math.floor(random() * DAMAGE.length)] as string);
    if (roll < 0.4) result = [...result.slice(0, at), ...insert, ...result.slice(at)];
    else if (roll < 0.7)
      result = [...result.slice(0, at), ...result.slice(at + 1 + Math.floor(random() * 3))];
    else result = [...result.slice(0, at), ...insert, ...result.slice(at + 1)];
  }
  return result.join('');
}

/** The document cut at random places, each piece cleaned as the parser cleans what it hands on. */
function pieces(text: string, random: () => number): string[] {
  const cuts: string[] = [];
  let at = 0;
  while (at < text.length) {
    const length = random() < 0.2 ? text.length : 1 + Math.floor(random() * 40);
    cuts.push(cleanXmlText(text.slice(at, at + length)));
    at += length;
  }
  return cuts;
}

describe('the JUnit markup scanner against saxes', () => {
  it('reads every generated report exactly as saxes does, in any cutting', { timeout: 60_000 }, () => {
    const random = seededRandom(11);
    for (let round = 0; round < 400; round += 1) {
      const text = document(random);
      const withText = random() < 0.5;
      const cut = pieces(text, random);
      const oracle = withSaxes(cut, withText);
      expect(oracle.stopped, text).toBeUndefined();
      expect(withScanner(cut, withText), text).toEqual(oracle);
    }
  });

  it('never reads a damaged report differently from saxes: it reads the same or gives up', {
    timeout: 60_000,
  }, () => {
    const random = seededRandom(12);
    let read = 0;
    let gaveUp = 0;
    for (let round = 0; round < 3000; round += 1) {
      const text = damaged(document(random), random);
      const withText = random() < 0.5;
      const cut = pieces(text, random);
      const scanned = withScanner(cut, withText);
      if (scanned.stopped !== undefined) {
        gaveUp += 1;
        continue;
      }
      read += 1;
      const oracle = withSaxes(cut, withText);
      expect(oracle.stopped, JSON.stringify(text)).toBeUndefined();
      expect(scanned.events, JSON.stringify(text)).toEqual(oracle.events);
    }
    // Both outcomes happen, so the comparison above is not vacuous.
    expect(read).toBeGreaterThan(300);
    expect(gaveUp).toBeGreaterThan(300);
  });

  it('gives up on what it does not read rather than guessing', () => {
    const cases = [
      '<testsuite><testcase name="a">text</testcase></testsuite>',
      '<testsuite><![CDATA[x]]></testsuite>',
      '<?xml version="1.1"?><testsuite/>',
      '<testsuite><?pi data?></testsuite>',
      '<testsuite name="&unknown;"/>',
      // In attributes no reader asks for: giving up must not wait for a value to be read.
      '<testsuite tests="&unknown;"/>',
      '<testsuite tests="&#0;"/>',
      '<testsuite tests="a &amp b"/>',
      '<testsuite tests="a<b"/>',
      "<testsuite name='x' tests='<'/>",
      '<testsuite name="a" name="b"/>',
      '<testsuite __proto__="x"/>',
      '<testsuite><tést/></testsuite>',
      '<testsuite></testsuites>',
      '<testsuite>',
      '<testsuite/><testsuite/>',
      '\uFEFF<testsuite/>',
    ];
    for (const text of cases) {
      expect(withScanner([text], false).stopped, text).toBeDefined();
      const readingNothing = new JUnitMarkupScanner({ openTag: () => undefined, closeTag: () => undefined });
      expect(() => {
        readingNothing.write(text);
        readingNothing.close();
      }, text).toThrow(UnsupportedMarkup);
    }
  });
});
