// With details, the output of a test not known to fail is left out undecoded and read again from the report
// only if a failure follows it. The same document written as UTF-16 is read with every output decoded as
// it comes (a UTF-16 report's bytes are not the file's, so nothing is left out there): every failing test's
// output, message and stack must be the same, whatever the order of output and failures, the references,
// CDATA, comments, CRLF and multi-byte characters in it, and the read chunk boundaries cutting it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessUnder, readAt } from '../../../testing/fixtureRun.js';
import { outputOf, stackOf } from '../../testResult.js';
import { type FoldedTest, isFailing } from '../../testRun.js';

const random = seededRandom(2_512);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const PIECES = [
  'log line with nothing odd\n',
  'expected: &lt;5&gt; &amp; &quot;&apos; &#65;&#x263A;\n',
  'prüft ✓ 😀 ',
  '\r\n',
  '\r',
  '   \n',
  '<![CDATA[raw <b> & ]] stays]]>',
  '<!-- a comment -->',
  'red\x1B[31m coloured\x1B[0m\n',
  'a control \x07 character\n',
  'x'.repeat(3_000),
];

function outputBody(): string {
  const count = random() < 0.05 ? 600 : 1 + Math.floor(random() * 12);
  return Array.from({ length: count }, () => pick(PIECES)).join('');
}

/** A test case: output elements before and after its failures (or none), in any order. */
function testCase(index: number, withElements: boolean): string {
  const parts: string[] = [];
  const output = () => {
    const element = random() < 0.7 ? 'system-out' : 'system-err';
    const body = outputBody();
    // An element inside an output element: the element is then read as markup.
    const inner = withElements && random() < 0.2 ? '<b>bold</b>tail' : '';
    return random() < 0.05 ? `<${element}/>` : `<${element}>${body}${inner}</${element}>`;
  };
  for (let count = Math.floor(random() * 3); count > 0; count -= 1) parts.push(output());
  const roll = random();
  if (roll < 0.45)
    parts.push(`<failure message="m${index % 7}" type="E">stack ${index}\n\tat a.B.c(B.java:1)\n</failure>`);
  else if (roll < 0.55) parts.push(`<error type="E">no message ${index}</error>`);
  else if (roll < 0.6) parts.push('<skipped/>');
  for (let count = Math.floor(random() * 3); count > 0; count -= 1) parts.push(output());
  return `<testcase classname="c${index % 5}" name="t${index}">\n  ${parts.join('\n  ')}\n</testcase>`;
}

function reportOf(cases: number, withElements: boolean): string {
  const suites: string[] = [];
  for (let suite = 0; suite * 100 < cases; suite += 1) {
    const body = Array.from({ length: 100 }, (_, index) => testCase(suite * 100 + index, withElements));
    const suiteOutput = random() < 0.5 ? `<system-out>suite ${suite} log</system-out>` : '';
    suites.push(`<testsuite name="s${suite}">\n${body.join('\n')}\n${suiteOutput}</testsuite>`);
  }
  return `<?xml version="1.0"?>\n<testsuites>\n${suites.join('\n')}\n</testsuites>\n`;
}

function utf16(document: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(document, 'utf16le')]);
}

interface Failing {
  name: string;
  status: string;
  output?: string;
  messages: (string | undefined)[];
  stacks: string[];
}

async function failingOf(directory: string, name: string, bytes: string | Buffer): Promise<Failing[]> {
  const file = path.join(directory, name);
  await writeFile(file, bytes);
  const run = await readAt(await accessUnder(directory), file, { details: true });
  return [...run.tests.values()].filter(isFailing).map((test: FoldedTest) => ({
    name: test.name,
    status: test.status,
    ...(outputOf(test) === undefined ? {} : { output: outputOf(test) as string }),
    messages: test.failures.map((failure) => failure.message),
    stacks: test.failures.map((failure) => stackOf(failure) ?? ''),
  }));
}

describe('output left out until a failure follows it', () => {
  let directory = '';
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'left-out-output-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  for (const withElements of [false, true]) {
    it(`gives every failing test the output read with nothing left out${withElements ? ', with elements inside output' : ''}`, {
      timeout: 120_000,
    }, async () => {
      const document = reportOf(3_000, withElements);
      // Several read chunks of 1 MiB, so output is cut by chunk boundaries too.
      expect(Buffer.byteLength(document)).toBeGreaterThan(3 << 20);
      const ours = await failingOf(directory, 'utf8.xml', document);
      const oracle = await failingOf(directory, 'utf16.xml', utf16(document));
      expect(ours.length).toBeGreaterThan(1_000);
      expect(ours).toEqual(oracle);
      // Not vacuous: many failing tests have output, some of it only from before their failure.
      const beforeOnly = document
        .split('<testcase ')
        .filter(
          (text) =>
            /<(failure|error)[ >]/.test(text) && /<system-(out|err)>[\s\S]*<(failure|error)[ >]/.test(text),
        );
      expect(beforeOnly.length).toBeGreaterThan(300);
      expect(ours.filter((test) => test.output !== undefined).length).toBeGreaterThan(800);
    });
  }
});
