// JSON reports (Jest/Vitest, CTRF) are read whole: the one bounded read and parse they share.
import type { ConfinedFile } from '@groundwork/mcp-common/files';
import { ReportParseError } from '../reportErrors.js';
import type { ParseOptions } from '../testResult.js';

/** JSON has to be read whole; reports beyond this are refused rather than exhausting memory. */
const MAX_JSON_BYTES = 256 * 1024 * 1024;

/** The parsed JSON of `file`, or a ReportParseError saying why it cannot be read. */
export async function readJsonReport(file: ConfinedFile, options: ParseOptions): Promise<unknown> {
  const size = file.size;
  if (size > MAX_JSON_BYTES) {
    throw new ReportParseError(
      `the JSON report is ${Math.round(size / 1e6)} MB; JSON reports over 256 MB are not read`,
    );
  }
  let report: unknown;
  try {
    const text = await file.readText({ maxBytes: MAX_JSON_BYTES, signal: options.signal });
    report = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new ReportParseError(`the JSON is malformed (${(error as Error).message})`);
  }
  options.onBytes?.(size);
  return report;
}

/** A value as text: a string as written, anything else as its JSON (a thrown object, a number). */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value) ?? '';
}
