import { describe, expect, it } from 'vitest';
import { CompilerProblems } from './compilerProblems.js';

function read(lines: string[], root = '/r'): ReturnType<CompilerProblems['problems']> {
  const problems = new CompilerProblems(root);
  for (const line of lines) problems.feed(line, ':app:compileJava');
  return problems.problems();
}

describe('CompilerProblems', () => {
  it('reads javac as Gradle prints it, the column from the caret line', () => {
    expect(
      read([
        '/r/app/src/main/java/demo/App.java:3: error: cannot find symbol',
        '  int x = Core.nope();',
        '              ^',
        '  symbol:   method nope()',
      ]),
    ).toEqual([
      {
        task: ':app:compileJava',
        kind: 'compile',
        file: 'app/src/main/java/demo/App.java',
        line: 3,
        column: 15,
        message: 'cannot find symbol',
      },
    ]);
  });

  it('reads javac as Maven prints it, kotlinc, tsc, go and rustc', () => {
    const found = read([
      '[ERROR] /r/core/src/main/java/demo/Core.java:[4,12] incompatible types: String cannot be converted to int',
      'e: file:///r/k/src/main/kotlin/A.kt:7:9 Unresolved reference: foo',
      'e: /r/k/src/main/kotlin/B.kt: (2, 5): Type mismatch',
      "src/index.ts(10,3): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/pretty.ts:4:1 - error TS2304: Cannot find name 'x'.",
      './main.go:5:2: undefined: y',
      'error[E0425]: cannot find value `z` in this scope',
      ' --> src/main.rs:2:13',
    ]);
    expect(found.map(({ file, line, column, code }) => ({ file, line, column, code }))).toEqual([
      { file: 'core/src/main/java/demo/Core.java', line: 4, column: 12, code: undefined },
      { file: 'k/src/main/kotlin/A.kt', line: 7, column: 9, code: undefined },
      { file: 'k/src/main/kotlin/B.kt', line: 2, column: 5, code: undefined },
      { file: 'src/index.ts', line: 10, column: 3, code: 'TS2322' },
      { file: 'src/pretty.ts', line: 4, column: 1, code: 'TS2304' },
      { file: 'main.go', line: 5, column: 2, code: undefined },
      { file: 'src/main.rs', line: 2, column: 13, code: 'E0425' },
    ]);
  });

  it('never shows an absolute path outside the root', () => {
    expect(read(['/etc/secret/Evil.java:1: error: x', 'src', '^'])[0]?.file).toBe('Evil.java');
  });
});
