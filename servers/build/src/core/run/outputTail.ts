// The last lines of a build's output, in bounded memory however much it prints.

export class OutputTail {
  private readonly lines: string[] = [];
  private start = 0;
  /** Lines seen in all. */
  count = 0;

  constructor(
    private readonly maxLines: number,
    private readonly maxLineChars = 1_000,
  ) {}

  push(line: string): void {
    const kept = line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)}…` : line;
    if (this.lines.length < this.maxLines) this.lines.push(kept);
    else {
      this.lines[this.start] = kept;
      this.start = (this.start + 1) % this.maxLines;
    }
    this.count += 1;
  }

  /** The last `n` lines, oldest first. */
  last(n: number): string[] {
    const ordered = [...this.lines.slice(this.start), ...this.lines.slice(0, this.start)];
    return ordered.slice(Math.max(0, ordered.length - n));
  }
}
