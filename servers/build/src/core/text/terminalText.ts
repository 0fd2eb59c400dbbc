// Build tools colour their output and reset the terminal even when asked not to (Debian's Maven 3.8.7 ends a
// `-B -Dstyle.color=never` build with `ESC[0m` lines): the lines answers carry and parsers read are plain
// text; the spooled log (build_log) keeps the bytes as the tool wrote them.

// CSI (`ESC[…m`, cursor moves), OSC (`ESC]…BEL`, titles and links) and two-byte escapes.
const TERMINAL_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's control sequences are what it matches.
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** The line without terminal control sequences. */
export function plainText(line: string): string {
  return line.includes('\u001b') ? line.replace(TERMINAL_SEQUENCE, '') : line;
}
