// Failure bodies are kept as where they are in the report and read again when shown: on a generated report
// of bodies cut at every kind of place (read chunk boundaries, multi-byte characters, references, CRLF,
// CDATA, comments, bodies too long to hold whole), each failure's stack is the text saxes reads from the
// whole document, cleaned as a stack is, and a cluster signature read before the stack is the one read
// after. A report rewritten after it was read is never read through its old offsets.
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessUnder, readAt } from '../../../testing/fixtureRun.js';
import { expectedStack, failureTexts } from '../../../testing/saxesFailureTexts.js';
import { clusterFailures } from '../../failureClusters.js';
import { signatureOf } from '../../failureSignature.js';
import { stackOf } from '../../testResult.js';
import { type FoldedTest, isFailing } from '../../testRun.js';
import { KeptBody } from './junitParser.js';
import { ReportChangedError } from './reportBodies.js';
import { MAX_WHOLE_BODY_BYTES } from './xmlBodySplitter.js';

const random = seededRandom(2_026);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const PLAIN = [
  '\tat com.acme.Service.handle(Service.java:12)\n',
  '\tat org.junit.runners.Parent.run(Parent.java:9)\n',
  '\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)\n',
  'expected: &lt;5&gt; but was: &lt;6&gt; &amp; &quot;&apos;\n',
  'prüft ✓ 😀 ',
  '\r\n',
  '\n',
  '    at applyCoupon (/repo/lib/coupon.js:28:11)\n',
  '  File "/repo/tests/test_a.py", line 3, in test_a\n',
];
const ANY = [
  ...PLAIN,
  '\r',
  '&#65;&#x263A;',
  '<![CDATA[raw <b> & ]] stays]]>',
  '<!-- a comment -->',
  '&#103;oroutine 7 [running]:\n',
  'goroutine 1 [running]:\n',
  'panic: boom\n',
  'red[31m ',
];

function randomBody(): string {
  // Mostly stacks of a few kilobytes; some longer than a body held whole, some shorter than a kept one.
  const count = random() < 0.005 ? 20_000 : random() < 0.1 ? 2 : 1 + Math.floor(random() * 120);
  const pieces = random() < 0.6 ? PLAIN : ANY;
  const parts: string[] = [];
  for (let index = 0; index < count; index += 1) parts.push(pick(pieces));
  return parts.join('');
}

/** A report of one failure per body, some (`withoutMessages`) with no message: the body gives it. */
function reportOf(bodies: readonly string[], withoutMessages = true): string {
  const cases = bodies.map((body, index) => {
    const element = index % 5 === 0 ? 'error' : 'failure';
    const message = withoutMessages && index % 11 === 0 ? '' : ` message="m${index % 13}"`;
    return `<testcase classname="c${index % 17}" name="t${index}"><${element}${message} type="E">${body}</${element}></testcase>`;
  });
  return `<?xml version="1.0"?>\n<testsuite name="s">${cases.join('\n')}</testsuite>\n`;
}

describe('failure bodies kept in the report', () => {
  let directory = '';
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'kept-bodies-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('give every failure the stack saxes reads, and the same cluster signature before and after, worked out as read or not', {
    timeout: 120_000,
  }, async () => {
    const document = reportOf(Array.from({ length: 1_500 }, randomBody));
    // Several read chunks of 1 MiB, so bodies are cut by chunk boundaries too.
    expect(Buffer.byteLength(document)).toBeGreaterThan(3 << 20);
    const file = path.join(directory, 'report.xml');
    await writeFile(file, document);
    const texts = failureTexts(document);
    const access = await accessUnder(directory);
    // Read as failure_clusters reads it (each kept body's signature frame worked out from its bytes), and
    // as list_failures does (worked out when clustered, from the finished stack).
    const asRead = [...(await readAt(access, file, { details: true, signatures: true })).tests.values()];
    const run = await readAt(access, file, { details: true });
    const failing = [...run.tests.values()].filter(isFailing);
    expect(failing.length).toBe(1_500);
    let kept = 0;
    failing.forEach((test, index) => {
      const failure = test.failures[0];
      if (failure === undefined) throw new Error(`t${index} has no failure`);
      if (failure.unfinished instanceof KeptBody) kept += 1;
      // Worked out from the finished stack, on the plain read.
      const signature = signatureOf(test);
      expect(stackOf(failure) ?? '', `t${index}`).toBe(expectedStack(texts[index] as string));
      expect(signatureOf(asRead[index] as FoldedTest), `t${index}`).toEqual(signature);
    });
    // So clustering either read gives the same clusters.
    const clustersOf = (tests: readonly FoldedTest[]) =>
      clusterFailures(tests.filter(isFailing)).map((cluster) => ({
        id: cluster.id,
        members: cluster.members.map((member) => member.name),
      }));
    expect(clustersOf(asRead)).toEqual(clustersOf(failing));
    // Not vacuous: most bodies were kept in the report, and some were not (short, panics, references, too long).
    expect(kept).toBeGreaterThan(600);
    expect(kept).toBeLessThan(1_450);
    // Some bodies are longer than the splitter holds whole (decoded in pieces, as before).
    expect(texts.filter((text) => text.length > MAX_WHOLE_BODY_BYTES).length).toBeGreaterThan(2);
  });

  it('are not read from a report rewritten since: the call fails and asks to be made again', async () => {
    const file = path.join(directory, 'rewritten.xml');
    const bodies = Array.from({ length: 40 }, (_, index) =>
      `expected: &lt;${index}&gt;\n${PLAIN[0]?.repeat(30)}`.replace('Service', `Service${index}`),
    );
    const original = reportOf(bodies, false);
    await writeFile(file, original);
    const kept = async () => {
      const run = await readAt(await accessUnder(directory), file, { details: true });
      const failing: FoldedTest[] = [...run.tests.values()].filter(isFailing);
      expect(failing.every((test) => test.failures[0]?.unfinished instanceof KeptBody)).toBe(true);
      return failing;
    };

    // Rewritten with other bodies (another size): refused, never the new file's bytes at the old offsets.
    let failing = await kept();
    const rewritten = reportOf(
      bodies.map((body) => `x${body}`),
      false,
    );
    await writeFile(file, rewritten);
    expect(() => stackOf(failing[3]?.failures[0] ?? { kind: 'failure' })).toThrow(ReportChangedError);
    // Read again, the new report gives its own stacks.
    failing = await kept();
    expect(stackOf(failing[3]?.failures[0] ?? { kind: 'failure' })).toBe(
      expectedStack(failureTexts(rewritten)[3] as string),
    );

    // Rewritten with the same size and its old modification time put back: the bytes around the body
    // no longer hold it where it was.
    await writeFile(file, original);
    failing = await kept();
    const before = await stat(file);
    await writeFile(file, original.replace('<testsuite name="s">', '<testsuite  name="">'));
    await utimes(file, before.atime, before.mtime);
    expect((await stat(file)).size).toBe(before.size);
    expect(() => stackOf(failing[3]?.failures[0] ?? { kind: 'failure' })).toThrow(ReportChangedError);

    // Removed: refused as well.
    await writeFile(file, original);
    failing = await kept();
    await rm(file);
    expect(() => stackOf(failing[0]?.failures[0] ?? { kind: 'failure' })).toThrow(ReportChangedError);
  });
});
