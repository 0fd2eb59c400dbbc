// A signature's frame, read in one scan of the stack's known text (trimmed and read for a frame line by
// line, each line once), against the pipeline it replaced, kept here: the frames read off the stack
// trimmed as the patterns trimmed it, through eachFrame, chosen as before. On generated stacks of every
// runtime given as text, and on JUnit reports read as list_failures reads them (bodies kept in the report
// with their cleaned beginning, bodies decoded at once, frames past the beginning, a beginning ending on the
// body's last line), every frame is the same, worked out as the report is read or when clustered.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from '@groundwork/mcp-testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { accessUnder, readAt } from '../testing/fixtureRun.js';
import { escapeXml, generatedStack, trimByPatterns } from '../testing/generatedStacks.js';
import { signatureOf } from './failureSignature.js';
import { KeptBody } from './formats/junit/junitParser.js';
import { eachFrame, isTestPath, type SourceFrame } from './stackFrames.js';
import { stackOf } from './testResult.js';
import { type FoldedTest, isFailing } from './testRun.js';

/** The frame search as it was: over the trimmed stack's lines, Python's read to the end. */
function firstCodeFrameAsBefore(stack: string): SourceFrame | undefined {
  const frames = eachFrame(stack);
  const first = frames.next();
  if (first.done === true) return undefined;
  if (!first.value.path.endsWith('.py')) {
    if (!isTestPath(first.value.path)) return first.value;
    for (const frame of frames) if (!isTestPath(frame.path)) return frame;
    return first.value;
  }
  const all = [first.value, ...frames];
  const innermostFirst = all.every((frame) => frame.path.endsWith('.py')) ? all.reverse() : all;
  return innermostFirst.find((frame) => !isTestPath(frame.path)) ?? innermostFirst[0];
}

/** The frame part of the signature as it was, of the stack as the patterns trimmed it. */
function frameAsBefore(test: FoldedTest, stack: string | undefined): string {
  const chosen = stack === undefined ? undefined : firstCodeFrameAsBefore(trimByPatterns(stack).stack);
  const shown = test.sourceFile ?? test.file;
  const frame = chosen ?? (shown === undefined ? undefined : { path: shown, line: test.line ?? 0 });
  if (frame === undefined) return '';
  const normalized = frame.path.replace(/\\/g, '/');
  return `${normalized.slice(normalized.lastIndexOf('/') + 1)}:${frame.line}`;
}

const random = seededRandom(31);

/** Mostly test frames before the first frame of code (some with none), so the search reads far in. */
function testHeavyStack(): string {
  const lines = ['java.lang.AssertionError: boom'];
  const frames = Math.floor(random() * 30);
  for (let index = 0; index < frames; index += 1)
    lines.push(`\tat com.acme.cart.CartTest.step${index}(CartTest.java:${index + 1})`);
  if (random() < 0.7) lines.push('\tat com.acme.Service.handle(Service.java:12)');
  return `${lines.join('\n')}\n${generatedStack(random)}`;
}

function stackOfAnyKind(): string {
  const roll = random();
  if (roll < 0.4) return generatedStack(random);
  if (roll < 0.8) return generatedStack(random, 0.1);
  return testHeavyStack();
}

describe('the signature frame, read in one scan', () => {
  it('is the frame the replaced pipeline read, of 8,000 generated stacks given as text', () => {
    const differing: string[] = [];
    for (let index = 0; index < 8_000; index += 1) {
      const stack = stackOfAnyKind();
      const test: FoldedTest = {
        suite: 's',
        classname: 'c',
        name: `t${index}`,
        status: 'failed',
        failures: [{ kind: 'failure', message: 'm', stack }],
        attempts: 1,
        failedAttempts: 1,
        ...(index % 3 === 0 ? { file: 'src/cart.test.ts', line: 7 } : {}),
      };
      if (signatureOf(test).frame !== frameAsBefore(test, stack)) differing.push(stack);
    }
    expect(differing.slice(0, 3)).toEqual([]);
  });

  it('is the innermost project frame of a Python traceback, and never a line left out after a noise frame', () => {
    const stacks: [string, string][] = [
      // pytest's short form: outermost first, so the innermost frame is the last.
      ['src/shop/cart.py:42: in total\n    return rate(x)\nsrc/shop/tax.py:7: ValueError', 'tax.py:7'],
      [
        'Traceback (most recent call last):\n  File "/repo/src/shop/cart.py", line 42, in total\n    return rate(x)\n  File "/repo/src/shop/tax.py", line 7, in rate\n    raise ValueError()',
        'tax.py:7',
      ],
      // The source line after a noise frame is left out, even one that reads as a frame.
      [
        '  File "/usr/lib/python3.11/site-packages/pluggy/_hooks.py", line 3, in call\n    util.go:12: boom\n  File "/repo/src/shop/cart.py", line 42, in total',
        'cart.py:42',
      ],
    ];
    for (const [stack, frame] of stacks) {
      const test: FoldedTest = {
        suite: 's',
        classname: 'c',
        name: 't',
        status: 'failed',
        failures: [{ kind: 'failure', message: 'm', stack }],
        attempts: 1,
        failedAttempts: 1,
      };
      expect(frameAsBefore(test, stack), stack).toBe(frame);
      expect(signatureOf(test).frame, stack).toBe(frame);
    }
  });

  it('is the frame the replaced pipeline read when a body ends on a frame that trimming counts only when trimmed', async () => {
    // Twenty-five kept frames, then one whose pattern ends in `$` with space after it and a line end: the
    // whole body's trimming removes that space, so the frame counts and is past trimming's 25, folded; a
    // beginning that ends on that line must not take it. Short bodies are decoded at once; long ones
    // (padded) kept.
    const stacks = [
      `boom\n${'at x\n'.repeat(25)} ❯ src/p.ts:1:2 `,
      `boom\n${Array.from({ length: 25 }, (_, index) => `\ta_test.go:${index + 1}`).join('\n')}\n\tsrc/x.go:9 `,
      `boom\n${'at x\n'.repeat(25)}at com.acme.S.s(S.java:3)\u2028`,
    ];
    const directory = await mkdtemp(path.join(tmpdir(), 'signature-last-line-'));
    try {
      const bodies = stacks.flatMap((stack) => [`${stack}\n`, `${stack}\n${' '.repeat(600)}`]);
      const cases = bodies.map(
        (body, index) =>
          `<testcase classname="c" name="t${index}"><failure message="m" type="E">${escapeXml(body)}</failure></testcase>`,
      );
      const file = path.join(directory, 'report.xml');
      await writeFile(file, `<?xml version="1.0"?>\n<testsuite name="s">${cases.join('\n')}</testsuite>\n`);
      for (const signatures of [true, false]) {
        const run = await readAt(await accessUnder(directory), file, { details: true, signatures });
        const failing = [...run.tests.values()].filter(isFailing);
        expect(failing.length).toBe(bodies.length);
        for (const test of failing) {
          const frame = signatureOf(test).frame;
          const failure = test.failures[0];
          expect(frame, `${test.name} ${signatures}`).toBe(
            frameAsBefore(test, failure === undefined ? undefined : stackOf(failure)),
          );
        }
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  describe('on a generated report read as list_failures reads it', () => {
    let directory: string | undefined;
    afterAll(async () => {
      if (directory !== undefined) await rm(directory, { recursive: true, force: true });
    });

    it('is the frame the replaced pipeline read, worked out as read or when clustered', {
      timeout: 60_000,
    }, async () => {
      directory = await mkdtemp(path.join(tmpdir(), 'signature-frames-'));
      const cases = Array.from({ length: 3_000 }, (_, index) => {
        // Some short bodies (decoded at once), some with leading blank lines or colour codes.
        const stack = index % 7 === 0 ? 'boom\n\tat com.acme.A.b(A.java:3)' : stackOfAnyKind();
        const lead = index % 5 === 0 ? '\n  \n' : index % 11 === 0 ? '[31m' : '';
        return `<testcase classname="c${index % 17}" name="t${index}"><failure message="m${index}" type="E">${escapeXml(lead + stack)}</failure></testcase>`;
      });
      const file = path.join(directory, 'report.xml');
      await writeFile(file, `<?xml version="1.0"?>\n<testsuite name="s">${cases.join('\n')}</testsuite>\n`);
      for (const signatures of [true, false]) {
        const run = await readAt(await accessUnder(directory), file, { details: true, signatures });
        const failing = [...run.tests.values()].filter(isFailing);
        expect(failing.length).toBe(3_000);
        const kinds = { kept: 0, text: 0, whole: 0, asRead: 0, notAsRead: 0 };
        const differing: string[] = [];
        for (const test of failing) {
          const failure = test.failures[0];
          if (failure === undefined) throw new Error(`${test.name} has no failure`);
          const unfinished = failure.unfinished;
          if (unfinished instanceof KeptBody) kinds.kept += 1;
          else if (unfinished !== undefined) kinds.text += 1;
          else if (failure.stack !== undefined) kinds.whole += 1;
          const asRead = failure.signatureFrame !== undefined;
          const before = signatureOf(test).frame;
          const stack = stackOf(failure);
          // Of the bodies not finished as read (those with a stack: one without needs no frame).
          if (unfinished !== undefined && stack !== undefined) kinds[asRead ? 'asRead' : 'notAsRead'] += 1;
          const expected = frameAsBefore(test, stack);
          if (before !== expected) differing.push(`${before} ${expected}`);
        }
        expect(differing.slice(0, 3)).toEqual([]);
        // Every way of holding a stack was read: kept in the report, kept as text, finished at once.
        expect(kinds.kept).toBeGreaterThan(1_000);
        expect(kinds.text).toBeGreaterThan(100);
        expect(kinds.whole).toBeGreaterThan(100);
        // Asked for signatures, the reader worked out the frame of every body it did not finish; else of none.
        expect(kinds[signatures ? 'notAsRead' : 'asRead']).toBe(0);
        expect(kinds[signatures ? 'asRead' : 'notAsRead']).toBeGreaterThan(1_100);
      }
    });
  });
});
