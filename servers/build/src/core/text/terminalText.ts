// Build tools colour their output and reset the terminal even when asked not to (Debian's Maven 3.8.7 ends a
// `-B -Dstyle.color=never` build with `ESC[0m` lines): the lines answers carry and parsers read are plain
// text; the spooled log (build_log) keeps the bytes as the tool wrote them.
import { stripVTControlCharacters } from 'node:util';

/** The line without terminal control sequences (CSI colours and cursor moves, OSC titles and links). */
export function plainText(line: string): string {
  return line.includes('\u001b') ? stripVTControlCharacters(line) : line;
}
