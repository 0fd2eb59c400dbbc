// Assertion libraries state what they expected and what they got in a handful of fixed phrasings; when a
// message uses one, the two values are split out so the agent does not have to parse prose.

export interface ExpectedActual {
  expected: string;
  actual: string;
}

type Extractor = (text: string) => ExpectedActual | undefined;

const between = (pattern: RegExp, expectedGroup: number, actualGroup: number): Extractor => {
  return (text) => {
    const match = pattern.exec(text);
    const expected = match?.[expectedGroup]?.trim();
    const actual = match?.[actualGroup]?.trim();
    return expected === undefined || actual === undefined ? undefined : { expected, actual };
  };
};

const EXTRACTORS: readonly Extractor[] = [
  // JUnit 4/5, opentest4j, TestNG: `expected: <5> but was: <6>`, `expected:<[5]> but was:<[6]>`
  between(/expected:\s*<(.*?)>\s*but was:\s*<(.*?)>/s, 1, 2),
  // AssertJ: `expected: 5\n but was: 6`
  between(/^\s*expected:\s*(.+)\n\s*but was:\s*(.+)$/m, 1, 2),
  // AssertJ: `Expecting actual:\n  6\nto be equal to:\n  5`
  between(/Expecting actual:\s*\n\s*(.+?)\s*\nto (?:be equal to|contain|be):\s*\n\s*(.+?)(?:\n|$)/s, 2, 1),
  // Jest / Vitest expect: `Expected: 8.99\nReceived: 8.991`
  between(/^\s*Expected(?: value)?:\s*(.+)\n\s*Received(?: value)?:\s*(.+)$/m, 1, 2),
  // Chai (Vitest's junit message): `expected 180 to be 190`, `expected [ 1 ] to deeply equal [ 2 ]`
  between(/expected (.+?) to (?:be|equal|deeply equal|strictly equal|eql) (.+?)(?: \/\/ .*)?$/m, 2, 1),
  // node:assert: `4 !== 5` under "Expected values to be strictly equal:"
  between(/to be (?:strictly|loosely|deep-strictly|deep) equal:\s*\n+\s*(.+?) !==? (.+?)\s*(?:\n|$)/s, 2, 1),
  // testify: `expected: 3\n actual  : 4`
  between(/expected\s*:\s*(.+)\n\s*actual\s*:\s*(.+)/, 1, 2),
  // Go convention: `got 4, want 3`, `= 4, want 3`
  between(/(?:got:?|=)\s*(.+?),\s*want:?\s*(.+?)\s*$/m, 2, 1),
  // pytest: `assert -5 == -6`
  between(/^(?:E\s+)?assert (.+?) == (.+?)$/m, 2, 1),
  // Python unittest: `AssertionError: 5 != 6`
  between(/AssertionError: (.+?) != (.+?)$/m, 2, 1),
];

/** The expected and actual values a failure message states, if it states them in a known form. */
export function splitExpectedActual(message: string): ExpectedActual | undefined {
  for (const extract of EXTRACTORS) {
    const found = extract(message);
    if (found !== undefined) return found;
  }
  return undefined;
}
