import { describe, expect, it } from 'vitest';
import { parserFor } from '../../grammars/treeSitter.js';
import { parseScript } from './buildScript.js';
import { groovyChunks, groovyLexicalErrors } from './groovyChunks.js';

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

  it('reports no error for the valid Groovy the grammar does not know (kafka build.gradle constructs)', async () => {
    // Each line is valid Groovy (kafka builds with it) on which tree-sitter-groovy 0.1.2 makes an ERROR node.
    const constructs = [
      "componentSelection { rules ->\n  rules.all { boolean rejected = ['rc'].any { q -> q } }\n}\n",
      'static def projectToJUnitXmlPath(project) {\n  return project\n}\n',
      'test {\n  events = userTestLoggingEvents ?: testLoggingEvents\n}\n',
      'logTestStdout.rehydrate(delegate, owner, this)()\n',
      'cp.entries.findAll { it.kind == "src" }*.excludes = ["unit/"]\n',
      "dependencies {\n  implementation(libs.x) {\n    exclude module: 'log4j'\n  }\n}\n",
      'task t {\n  inputs.dir("a")\n    .withPropertyName("messages")\n}\n',
      'ext {\n  versions = [:]\n}\n',
    ];
    const parser = await parserFor('groovy');
    for (const text of constructs) {
      expect(parser.parse(text)?.rootNode.hasError, text).toBe(true);
      expect((await parseScript(text, 'groovy')).errorLines, text).toEqual([]);
    }
  });

  it('reports where a script is broken for any Groovy reader, at its line', () => {
    expect(groovyLexicalErrors("dependencies {\n  implementation 'a:b:1'\n}\n}}} (((\n")).toEqual([4]);
    expect(groovyLexicalErrors("a = 'x\nb = 2\n")).toEqual([1]);
    expect(groovyLexicalErrors('x {\n  y(\n}\n')).toEqual([3]);
    expect(groovyLexicalErrors('x {\n  y()\n')).toEqual([1]);
    expect(groovyLexicalErrors('a = 1\n/* never\nclosed\n')).toEqual([2]);
    expect(groovyLexicalErrors('s = """open\n')).toEqual([1]);
    // Brackets and quotes inside strings, comments and slashy regexes are no brackets.
    expect(groovyLexicalErrors("a = '}' // (\nb = \"it's\"\nc = d ==~ /[(]/\n")).toEqual([]);
    // Lines are counted through multi-line strings and comments, and past non-ASCII blanks.
    expect(groovyLexicalErrors("a = '''x\ny'''\n/* c\n*/ b = x ==~ /\\(/\n\u00a0}\n")).toEqual([5]);
  });
});
