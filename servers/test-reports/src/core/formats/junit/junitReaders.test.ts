// The JUnit reader with its fast markup scanner (falling back to saxes where the scanner gives up) against
// saxes alone, on every JUnit fixture and on a report that makes the scanner give up half way.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AllowedPaths } from '@groundwork/mcp-common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '../../../testing/fixtureRun.js';
import type { TestCaseResult } from '../../testResult.js';
import { UnsupportedMarkup } from './junitMarkupScanner.js';
import { parseJUnitFile, readJUnitWith } from './junitParser.js';

interface Read {
  cases: TestCaseResult[];
  returned?: number;
  error?: string;
  progress: number[];
}

async function read(file: string, details: boolean, how: 'with fallback' | 'fast' | 'saxes'): Promise<Read> {
  const access = await AllowedPaths.under(path.dirname(file));
  const handle = await access.openFile(file);
  const result: Read = { cases: [], progress: [] };
  const sink = (testCase: TestCaseResult) => result.cases.push(testCase);
  const options = { details, onBytes: (bytes: number) => result.progress.push(bytes) };
  try {
    result.returned =
      how === 'with fallback'
        ? await parseJUnitFile(handle, sink, options)
        : await readJUnitWith(how, handle, sink, options);
  } catch (error) {
    result.error = error instanceof UnsupportedMarkup ? 'gave up' : (error as Error).message;
  } finally {
    await handle.close();
  }
  return result;
}

/**
 * The checked-in JUnit fixtures. Not fixtures/generated/: other suites write reports there at test time
 * (the contract test a 360 MB one), and reading that with saxes, twice, took this test to its timeout;
 * generated reports are compared with saxes in junitMarkupScanner.test.ts, small and many.
 */
async function xmlFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  const generated = path.join(directory, 'generated');
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.xml') && entry.name !== 'pom.xml')
    .filter((entry) => entry.parentPath !== generated && !entry.parentPath.startsWith(generated + path.sep))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

describe('the JUnit reader against saxes alone', () => {
  it('reads every JUnit fixture exactly as saxes does, with and without details', {
    timeout: 30_000,
  }, async () => {
    const files = await xmlFiles(fixturesDir);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      for (const details of [false, true]) {
        const oracle = await read(file, details, 'saxes');
        const ours = await read(file, details, 'with fallback');
        expect({ ...ours, progress: [] }, file).toEqual({ ...oracle, progress: [] });
      }
    }
  });

  it('reads the runners’ reports among the fixtures without falling back to saxes', {
    timeout: 30_000,
  }, async () => {
    const files = (await xmlFiles(fixturesDir)).filter(
      (file) => !file.includes(`${path.sep}hostile${path.sep}`),
    );
    for (const file of files) {
      const fast = await read(file, true, 'fast');
      expect(fast.error, file).not.toBe('gave up');
    }
  });

  describe('a report the scanner gives up on half way', () => {
    let directory: string;
    let file: string;
    beforeAll(async () => {
      directory = await mkdtemp(path.join(tmpdir(), 'junit-readers-'));
      file = path.join(directory, 'report.xml');
      const output = 'x'.repeat(10_000);
      const suites: string[] = [];
      for (let suite = 0; suite < 10; suite += 1) {
        const cases: string[] = [];
        for (let index = 0; index < 30; index += 1) {
          const id = suite * 30 + index;
          const failure = id % 7 === 0 ? `<failure message="no ${id}">stack ${id}</failure>` : '';
          cases.push(
            `<testcase name="t${id}" classname="c${suite}" time="0.5">${failure}<system-out>${output}</system-out></testcase>`,
          );
        }
        // Text where only elements are expected (past the first MiB): legal XML the scanner does not read.
        const odd = suite === 6 ? '<properties><property name="k">text</property></properties>' : '';
        suites.push(`<testsuite name="s${suite}">${odd}\n${cases.join('\n')}\n</testsuite>`);
      }
      await writeFile(file, `<?xml version="1.0"?>\n<testsuites>\n${suites.join('\n')}\n</testsuites>\n`);
    });
    afterAll(async () => {
      await rm(directory, { recursive: true, force: true });
    });

    it('hands on every test once, as saxes reads them, and its progress never goes back', {
      timeout: 30_000,
    }, async () => {
      for (const details of [false, true]) {
        const fast = await read(file, details, 'fast');
        expect(fast.error).toBe('gave up');
        expect(fast.cases.length).toBeGreaterThan(100);
        const oracle = await read(file, details, 'saxes');
        const ours = await read(file, details, 'with fallback');
        expect(ours.cases.map((testCase) => testCase.name)).toEqual(
          Array.from({ length: 300 }, (_, index) => `t${index}`),
        );
        expect({ ...ours, progress: [] }).toEqual({ ...oracle, progress: [] });
        expect(ours.progress).toEqual([...ours.progress].sort((a, b) => a - b));
        expect(new Set(ours.progress).size).toBe(ours.progress.length);
      }
    });
  });
});
