// list_failures never holds the failure bodies it does not show: it keeps where they are in the report and
// reads the shown ones again. Over the wire, on a generated report with references, CDATA, multi-byte
// characters and a body cut by the reader's 1 MiB chunks, pages 2 and 3 are what reading every body whole
// gives (saxes' text of the whole document, trimmed as a stack is), and a report rewritten between two
// calls is read anew, never through the offsets of the report before it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession, seededRandom } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trimStack } from '../src/core/stackTrimming.js';
import { expectedStack, failureTexts } from '../src/testing/saxesFailureTexts.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const CHUNK = 1 << 20;
const FAILURES = 120;

const random = seededRandom(25);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const LINES = [
  '\tat com.acme.billing.Invoice.total(Invoice.java:41)\n',
  '\tat org.junit.jupiter.engine.execution.MethodInvocation.proceed(MethodInvocation.java:60)\n',
  '\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)\n',
  'expected: &lt;5&gt; but was: &lt;6&gt; &amp; &quot;q&quot; &apos;a&apos;\n',
  '\tat com.acme.prüfung.Straße.gehen(Straße.java:7) ✓ 😀\n',
  '<![CDATA[raw <b> & ]] stays\n]]>',
  '<!-- a comment -->',
  '\tat com.acme.billing.InvoiceTest.totals(InvoiceTest.java:19)\n',
];

/** A report whose bodies (each about 68 KB, `salt` in each) put a chunk boundary inside failure 15 or so. */
function report(salt: string): string {
  const cases = Array.from({ length: FAILURES }, (_, index) => {
    const lines = [`AssertionError: ${salt} total &lt;${index}&gt;\n`];
    for (let line = 0; line < 1_100; line += 1) lines.push(pick(LINES));
    const element = index % 4 === 0 ? 'error' : 'failure';
    return `<testcase classname="com.acme.billing.InvoiceTest" name="t${index}"><${element} message="${salt} &lt;${index}&gt;" type="java.lang.AssertionError">${lines.join('')}</${element}></testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="billing">\n${cases.join('\n')}\n</testsuite>\n`;
}

interface Failure {
  name: string;
  message: string;
  stack: string;
  folded_frames: number;
}

let directory = '';
let server: StdioSession;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'failure-pages-'));
  server = await connectOverStdio({
    bin,
    clientName: 'test-reports-failure-pages',
    args: ['--allowed-dir', directory],
  });
});
afterAll(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

async function page(file: string, cursor?: string): Promise<{ failures: Failure[]; next_cursor?: string }> {
  const result = await server.call('list_failures', {
    path: file,
    limit: 20,
    ...(cursor === undefined ? {} : { cursor }),
  });
  if (result.isError) throw new Error(result.text);
  return result.structuredContent as { failures: Failure[]; next_cursor?: string };
}

/** What each failure's entry says when its body is read whole: the message, the trimmed stack, folds. */
function oracle(document: string): Map<string, Omit<Failure, 'name'>> {
  return new Map(
    failureTexts(document).map((text, index) => {
      const trimmed = trimStack(expectedStack(text));
      const message = /message="([^"]*)"/.exec(document.split(`name="t${index}"`)[1] ?? '')?.[1] ?? '';
      return [
        `t${index}`,
        {
          message: message.replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
          stack: trimmed.stack,
          folded_frames: trimmed.folded,
        },
      ];
    }),
  );
}

function expectPage(failures: Failure[], expected: Map<string, Omit<Failure, 'name'>>): void {
  // As many as fit the answer's budget (7 of these).
  expect(failures.length).toBeGreaterThan(5);
  for (const failure of failures)
    expect(
      { message: failure.message, stack: failure.stack, folded_frames: failure.folded_frames },
      failure.name,
    ).toEqual(expected.get(failure.name));
}

describe('list_failures pages read from the report', () => {
  it('pages 2 and 3 equal the answers of whole bodies, and a rewritten report is read anew', async () => {
    const file = path.join(directory, 'TEST-billing.xml');
    const first = report('first');
    await writeFile(file, first);
    // Not vacuous: a body on page 2 or 3 is cut by the reader's first chunk boundary.
    const bytes = Buffer.from(first);
    const cut = bytes.lastIndexOf('<testcase ', CHUNK);
    const cutName = /name="(t\d+)"/.exec(bytes.subarray(cut, cut + 200).toString())?.[1];
    expect(bytes.indexOf('</testcase>', cut)).toBeGreaterThan(CHUNK);
    expect(Number(cutName?.slice(1))).toBeGreaterThanOrEqual(12);

    const expected = oracle(first);
    const page1 = await page(file);
    const page2 = await page(file, page1.next_cursor);
    const page3 = await page(file, page2.next_cursor);
    expectPage(page2.failures, expected);
    expectPage(page3.failures, expected);
    expect([...page2.failures, ...page3.failures].map((failure) => failure.name)).toContain(cutName);
    expect(page3.failures.map((failure) => failure.stack).join('\n')).toContain('<b> & ]] stays');

    // Rewritten between calls (other messages, bodies and offsets): the next page is the new report's.
    const second = report('second, longer');
    await writeFile(file, second);
    const rewritten = await page(file, page1.next_cursor);
    expectPage(rewritten.failures, oracle(second));
    expect(rewritten.failures[0]?.message).toMatch(/^second, longer/);
  });
});
