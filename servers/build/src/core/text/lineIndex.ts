// Offsets to 1-based line numbers, for parsers that report offsets or none (TOML, .properties): the line of a
// key is found by its text, the value by the parser.

export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) this.starts.push(at + 1);
  }

  /** The 1-based line holding `offset`. */
  lineAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }

  /** The text of a 1-based line, without its newline. */
  line(number: number): string {
    const start = this.starts[number - 1];
    if (start === undefined) return '';
    const end = this.starts[number];
    return this.text.slice(start, end === undefined ? undefined : end - 1).replace(/\r$/, '');
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /**
   * The first line from `fromLine` on (to `toLine`, inclusive) whose text starts with `key` as a key: bare or
   * quoted, then `=`, `:` or whitespace. For formats whose parsers give values but no positions.
   */
  keyLine(key: string, fromLine = 1, toLine = this.lineCount): number | undefined {
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`^\\s*(?:${escaped}|"${escaped}"|'${escaped}')\\s*[=:\\s]`);
    for (let number = fromLine; number <= toLine; number++) {
      if (pattern.test(`${this.line(number)} `)) return number;
    }
    return undefined;
  }

  /** The 1-based line of a TOML table header `[name]` (or `[[name]]`), when present. */
  tableLine(name: string): number | undefined {
    for (let number = 1; number <= this.lineCount; number++) {
      const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(this.line(number));
      if (header !== null && header[1]?.replace(/\s*\.\s*/g, '.').replace(/["']/g, '') === name)
        return number;
    }
    return undefined;
  }
}
