// What a Go test said, read from its output the same way whether go test -json or gotestsum's JUnit carried it.

/** `    calc_test.go:12: got 4, want 3` — where t.Log, t.Error and t.Fatal reported (they print alike). */
const GO_LOCATION = /^( +)([\w./-]+\.go):(\d+): ?(.*)$/gm;

/**
 * What the test reported with t.Log/t.Error/t.Fatal (Go prints them alike, so all are kept, in order, each
 * with its continuation lines); the location is the last one's, where t.Fatal stopped the test.
 */
export function reportedLines(output: string): { text: string; file?: string; line?: number } {
  const entries: string[] = [];
  let last: RegExpExecArray | undefined;
  for (const match of output.matchAll(GO_LOCATION)) {
    last = match;
    const indent = match[1] ?? '';
    const rest = output.slice((match.index ?? 0) + match[0].length + 1).split('\n');
    const continued: string[] = [];
    for (const line of rest) {
      if (!line.startsWith(`${indent}    `) || /^\s*--- /.test(line)) break;
      continued.push(line.trim());
    }
    entries.push([match[4] ?? '', ...continued].join('\n'));
  }
  if (last === undefined) return { text: '' };
  return { text: entries.join('\n'), file: last[2] ?? '', line: Number(last[3]) };
}
