import { describe, expect, it } from 'vitest';
import { parseScript } from './buildScript.js';
import { groovyChunks } from './groovyChunks.js';

describe('groovyChunks', () => {
  it('cuts at top-level statements only, outside strings, comments and brackets, keeping every line', () => {
    const source =
      "a = x ? y : ''\n// { not a block\nfoo {\n  bar '}'\n}\nb = [\n  1,\n]\nc = d\n  .e()\nok = v ==~ /(?i).*[.-]rc/\n";
    const chunks = groovyChunks(source);
    expect(chunks.map((chunk) => chunk.line)).toEqual([0, 1, 2, 5, 8, 10]);
    expect(chunks[0]?.text).toBe('a = x ? y : ""\n');
    // The regex keeps its length: 14 characters, a double-quoted string of blanks.
    expect(chunks[5]?.text).toBe(`ok = v ==~ "${' '.repeat(12)}"\n`);
    for (const chunk of chunks) {
      const original = source.split('\n').slice(chunk.line, chunk.line + chunk.text.split('\n').length - 1);
      expect(
        chunk.text
          .split('\n')
          .map((line) => line.length)
          .slice(0, -1),
      ).toEqual(original.map((l) => l.length));
    }
    expect(chunks[2]?.block).toEqual({ open: 4, close: 16 });
  });

  it('keeps one bad statement from swallowing the statements after it, each at its line', async () => {
    const script = await parseScript(
      "ext {\n  a = b ? c : ''\n  r = d ==~ /x[.-]y/\n}\nproject(':p') {\n  dependencies {\n    implementation 'g:n:1'\n  }\n}\n",
      'groovy',
    );
    const project = script.statements.find(
      (statement) => statement.kind === 'call' && statement.name === 'project',
    );
    expect(JSON.stringify(project)).toContain('"value":"g:n:1","line":7');
  });
});
