// What a Go test said, read from its output the same way whether go test -json or gotestsum's JUnit carried it.

/** `    calc_test.go:12: got 4, want 3` — where t.Log, t.Error and t.Fatal reported (they print alike). */
const GO_LOCATION = /^( +)([\w./-]+\.go):(\d+): ?(.*)$/gm;

/**
 * What the test reported last with t.Log/t.Error/t.Fatal, with its continuation lines, and where: Go prints
 * the three alike, and the last one is where t.Fatal stopped the test (a t.Log before it is context, kept
 * in the output, not the message).
 */
export function reportedLines(output: string): { text: string; file?: string; line?: number } {
  let entry = '';
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
    entry = [match[4] ?? '', ...continued].join('\n');
  }
  if (last === undefined) return { text: '' };
  return { text: entry, file: last[2] ?? '', line: Number(last[3]) };
}
