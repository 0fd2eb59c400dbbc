// The smaller ways a report used to be misread: each with the smallest input that showed it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessUnder, readAt, readFixture, statuses } from '../testing/fixtureRun.js';
import { buildFailureContext } from './failureContext.js';
import { stripAnsi } from './formats/ansiText.js';
import type { FoldedTest } from './testRun.js';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'corner-cases-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('reports cut short or broken', () => {
  it('counts the tests a truncated report held before the cut (never "tests: 0")', async () => {
    const run = await readFixture('hostile/truncated.xml');
    expect(run.reports[0]?.tests).toBeGreaterThan(0);
    expect(run.reports[0]?.tests).toBe(run.tests.size);
    expect(run.reports[0]?.error).toMatch(/the tests read before that point are included$/);
  });

  it('says an unparseable TEST-*.xml in a folder could not be read, instead of "no reports found"', async () => {
    await mkdir(path.join(work, 'surefire'));
    await writeFile(
      path.join(work, 'surefire', 'TEST-com.acme.BrokenTest.xml'),
      'Exception in thread "main"',
    );
    const run = await readAt(await accessUnder(work), path.join(work, 'surefire'));
    expect(run.reports).toMatchObject([
      { format: 'unknown', error: expect.stringMatching(/^not a test report this server reads/) },
    ]);
  });

  it('reads a zero-byte report as one the runner never wrote, not as "no tests"', async () => {
    await writeFile(path.join(work, 'TEST-empty.xml'), '');
    const run = await readAt(await accessUnder(work), work);
    expect(run.reports[0]).toMatchObject({
      format: 'empty',
      error: expect.stringMatching(/the runner wrote nothing/),
    });
  });

  it('reads UTF-16 JUnit (with its byte-order mark)', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-16"?><testsuite name="S"><testcase classname="C" name="caf\u00e9"><failure message="non"/></testcase><testcase classname="C" name="ok"/></testsuite>';
    await writeFile(
      path.join(work, 'TEST-le.xml'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]),
    );
    await writeFile(
      path.join(work, 'TEST-be.xml'),
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(xml, 'utf16le').swap16()]),
    );
    for (const file of ['TEST-le.xml', 'TEST-be.xml']) {
      const run = await readAt(await accessUnder(work), path.join(work, file));
      expect(statuses(run), file).toEqual({ café: 'failed', ok: 'passed' });
    }
  });
});

describe('ANSI colour as runners write it', () => {
  it('is removed whether written raw, escaped in YAML, as pytest writes it, or without its escape character', () => {
    expect(stripAnsi('\u001b[31mboom\u001b[0m')).toBe('boom');
    expect(stripAnsi('\\x1B[31mboom\\x1B[0m')).toBe('boom'); // node:test's TAP (single-quoted YAML)
    expect(stripAnsi('#x1B[1;31mboom#x1B[0m')).toBe('boom'); // pytest's JUnit
    expect(stripAnsi('[31mboom[39m')).toBe('boom'); // mocha-junit-reporter
    expect(stripAnsi('items[0] and [note]')).toBe('items[0] and [note]');
  });
});

describe('failure_context budget', () => {
  it('stays within max_tokens 500 when the stack is one very long line', async () => {
    const test: FoldedTest = {
      suite: 'S',
      classname: 'C',
      name: 'minified',
      status: 'failed',
      failures: [{ kind: 'failure', message: 'x'.repeat(3_000), stack: 'at a.js:1:1 '.repeat(4_000) }],
      trimmedStack: 'at a.js:1:1 '.repeat(4_000),
      attempts: 1,
      failedAttempts: 1,
    };
    const context = await buildFailureContext(test, {
      root: work,
      access: await accessUnder(work),
      contextLines: 5,
      maxTokens: 500,
    });
    expect(context.truncated).toBe(true);
    expect(context.estimated_tokens).toBeLessThanOrEqual(500);
    expect(JSON.stringify(context).length / 4).toBeLessThanOrEqual(500);
  });
});
