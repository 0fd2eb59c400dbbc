// Decides what a file is from its first bytes, never from its name: runners name reports freely.
import { open } from 'node:fs/promises';
import type { ReportFormat } from './testResult.js';

const SNIFF_BYTES = 64 * 1024;

/** The report format of `file`, or undefined when it is not a test report this server reads. */
export async function detectFormat(file: string): Promise<ReportFormat | 'empty' | undefined> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return detectFormatOf(buffer.subarray(0, bytesRead).toString('utf8'));
  } finally {
    await handle.close();
  }
}

export function detectFormatOf(start: string): ReportFormat | 'empty' | undefined {
  const text = start.replace(/^\uFEFF/, '').trimStart();
  if (text === '') return 'empty';
  if (text.startsWith('<')) {
    const withoutProlog = text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, '').trimStart();
    if (/^<(testsuites|testsuite)[\s/>]/.test(withoutProlog)) return 'junit';
    // A report with a DOCTYPE is still a report, so that the parser refuses it with a clear reason.
    if (withoutProlog.startsWith('<!DOCTYPE') && /<testsuites?[\s/>]/.test(withoutProlog)) return 'junit';
    return undefined;
  }
  // go test -json, possibly after plain text (Go ≤ 1.23 prints `FAIL pkg [build failed]` that way).
  const goEvent = (line: string) =>
    /^\{.*"Action"\s*:\s*"/.test(line) && /"(Time|Package|Test|Output|ImportPath)"\s*:/.test(line);
  if (text.split('\n', 40).some(goEvent)) return 'go-test-json';
  if (/^FAIL\s+\S+\s+\[(build|setup) failed\]/.test(text)) return 'go-test-json';
  if (text.startsWith('{')) {
    if (/"testResults"\s*:/.test(text) && /"(numTotalTests|assertionResults|numFailedTests)"\s*:/.test(text))
      return 'jest-json';
    return undefined;
  }
  const firstLines = text.split('\n', 20).map((line) => line.trim());
  if (/^TAP version 1[34]\b/i.test(firstLines[0] ?? '')) return 'tap';
  const firstPoint = firstLines.find((line) => line !== '' && !line.startsWith('#'));
  if (firstPoint !== undefined && /^(1\.\.\d+|ok\b|not ok\b)/.test(firstPoint)) return 'tap';
  return undefined;
}
