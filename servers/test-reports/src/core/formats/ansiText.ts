// Test output is pasted into every report format verbatim, colour codes included; they are removed before
// a message or stack is shown.

// An ANSI escape sequence (CSI such as colours, or OSC such as hyperlinks), or a lone illegal character.
export const ANSI_OR_CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this module's job
  /\x1B\[[0-?]*[ -/]*[@-~]|\x1B\][^\x07\x1B]*(?:\x07|\x1B\\)|\x1B[@-Z\\-_]?|[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g;

// An escape written out as text: node:test's TAP writes `'boom \x1B[31mred'` in single-quoted YAML, pytest's
// JUnit writes `#x1B[31m` (it replaces characters XML forbids that way); mocha-junit-reporter drops the
// escape character and leaves `[31m` (so a bare colour code is removed too: text like `a[0m` is rarer than
// colour in test output).
const TEXTUAL_ANSI =
  /(?:\\(?:x1[bB]|u001[bB]|033|e)|#x1[bB])\[[0-?]*[ -/]*[@-~]|\[(?:\d{1,3}(?:;\d{1,3})*)?m/g;

/** Removes ANSI escapes (real, or written out as `\x1B[31m`) from text read from non-XML reports. */
export function stripAnsi(text: string): string {
  const cleaned = text.includes('\x1B') ? text.replace(ANSI_OR_CONTROL, '') : text;
  return cleaned.includes('[') ? cleaned.replace(TEXTUAL_ANSI, '') : cleaned;
}
