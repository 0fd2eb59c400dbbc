// Decides what a file is from its first bytes, never from its name: runners name reports freely.
import type { ConfinedFile } from '@groundwork/mcp-common/files';
import type { ReportFormat } from './testResult.js';

const SNIFF_BYTES = 64 * 1024;

/** The report format of `file`, or undefined when it is not a test report this server reads. */
export async function detectFormat(file: ConfinedFile): Promise<ReportFormat | 'empty' | undefined> {
  return detectFormatOf(decodeStart(await file.readAt(0, SNIFF_BYTES)));
}

/** The first bytes as text: UTF-8, or UTF-16 when a byte-order mark says so (some .NET and Windows tools). */
export function decodeStart(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  return bytes.toString('utf8');
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
    // CTRF names itself (`"reportFormat": "CTRF"`); older reporters wrote only `results.tool` and `summary`.
    if (/"reportFormat"\s*:\s*"CTRF"/.test(text)) return 'ctrf';
    if (/^\{\s*"results"\s*:\s*\{\s*"tool"\s*:/.test(text)) return 'ctrf';
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
