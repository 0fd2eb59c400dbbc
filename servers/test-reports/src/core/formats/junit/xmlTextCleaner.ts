// Test output is pasted into reports verbatim, so real reports carry ANSI colour codes and control
// characters that XML forbids. They are removed before the XML parser sees them, chunk by chunk.

// Characters XML 1.0 never allows (tab, LF and CR are fine), plus the two non-characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this module's job
const ILLEGAL_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
// An ANSI escape sequence (CSI such as colours, or OSC such as hyperlinks), or a lone illegal character.
const ILLEGAL_RUN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this module's job
  /\x1B\[[0-?]*[ -/]*[@-~]|\x1B\][^\x07\x1B]*(?:\x07|\x1B\\)|\x1B[@-Z\\-_]?|[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g;
// The same written as character references (`&#27;[31m`, `&#x1B;`), which XML rejects just as well.
const ILLEGAL_REFERENCE =
  /&#(?:x0*1[bB]|0*27);(?:\[[0-?]*[ -/]*[@-~])?|&#(?:x0*(?:[0-8bBcCeE]|1[0-9a-fA-F]|[fF]{3}[eEfF])|0*(?:[0-8]|1[124-9]|2[0-9]|3[01]|6553[45]));/g;
/**
 * Removes ANSI escapes and XML-illegal characters (literal or as character references). Callers hand it
 * pieces that end at a markup boundary, so no sequence is ever cut in two.
 */
export function cleanXmlText(text: string): string {
  let cleaned = text;
  if (ILLEGAL_CHAR.test(cleaned)) cleaned = cleaned.replace(ILLEGAL_RUN, '');
  if (cleaned.includes('&#')) cleaned = cleaned.replace(ILLEGAL_REFERENCE, '');
  return cleaned;
}

// An escape written out as text: node:test's TAP writes `'boom \x1B[31mred'` in single-quoted YAML, pytest's
// JUnit writes `#x1B[31m` (it replaces characters XML forbids that way); mocha-junit-reporter drops the
// escape character and leaves `[31m` (so a bare colour code is removed too: text like `a[0m` is rarer than
// colour in test output).
const TEXTUAL_ANSI =
  /(?:\\(?:x1[bB]|u001[bB]|033|e)|#x1[bB])\[[0-?]*[ -/]*[@-~]|\[(?:\d{1,3}(?:;\d{1,3})*)?m/g;

/** Removes ANSI escapes (real, or written out as `\x1B[31m`) from text read from non-XML reports. */
export function stripAnsi(text: string): string {
  const cleaned = text.includes('\x1B') ? text.replace(ILLEGAL_RUN, '') : text;
  return cleaned.includes('[') ? cleaned.replace(TEXTUAL_ANSI, '') : cleaned;
}
