import { describe, expect, it } from 'vitest';
import { changedDeclarations } from './changedDeclarations.js';

describe('changedDeclarations', () => {
  it('names a declaration exported under another name by the name importers use', async () => {
    const before = 'function _catch(a: number) {\n  return a;\n}\nexport { _catch as catch, _catch };\n';
    const after = 'function _catch(a: number) {\n  return a + 1;\n}\nexport { _catch as catch, _catch };\n';
    const diff = '@@ -2 +2 @@\n-  return a;\n+  return a + 1;\n';
    const changed = await changedDeclarations('a.ts', 'typescript', before, after, diff);
    expect(changed.map((entry) => `${entry.change} ${entry.name}`).sort()).toEqual([
      'modified _catch',
      'modified catch',
    ]);
    const renamed = after.replace('_catch as catch, _catch', '_catch as recover');
    expect(
      (await changedDeclarations('a.ts', 'typescript', after, renamed, undefined))
        .map((entry) => `${entry.change} ${entry.name}`)
        .sort(),
    ).toEqual(['added recover', 'removed _catch', 'removed catch']);
  });
});

const changes = async (
  file: string,
  language: Parameters<typeof changedDeclarations>[1],
  before: string,
  after: string,
) =>
  (await changedDeclarations(file, language, before, after, undefined))
    .map((entry) => `${entry.change} ${entry.name}`)
    .sort();

describe('changedDeclarations by declaration text', () => {
  it('Python: a body, not a comment; __all__ decides what is exported', async () => {
    const before =
      "__all__ = ['f', '_g']\n\ndef f(a):\n    # note\n    return a\n\ndef _g():\n    pass\n\ndef h():\n    pass\n";
    expect(await changes('m.py', 'python', before, before.replace('# note', '# other'))).toEqual([]);
    expect(await changes('m.py', 'python', before, before.replace('return a', 'return a + 1'))).toEqual([
      'modified f',
    ]);
    expect(
      await changes('m.py', 'python', before, before.replace('    pass\n\ndef h', '    return 1\n\ndef h')),
    ).toEqual(['modified _g']);
    expect(await changes('m.py', 'python', before, before.replace("'_g'", "'_g', 'h'"))).toEqual(['added h']);
  });

  it('Go: methods by their type, iota constants by their place', async () => {
    const before =
      'package p\n\ntype T struct{}\n\nfunc (t *T) Run() int {\n\treturn 1 // one\n}\n\nfunc (u u) Run() {}\n\nconst (\n\tA = iota\n\tB\n)\n';
    expect(await changes('p.go', 'go', before, before.replace('// one', '// uno'))).toEqual([]);
    expect(await changes('p.go', 'go', before, before.replace('return 1', 'return 2'))).toEqual([
      'modified T.Run',
    ]);
    expect(await changes('p.go', 'go', before, before.replace('A = iota', 'A = iota + 1'))).toEqual([
      'modified A',
      'modified B',
    ]);
    expect(await changes('p.go', 'go', before, before.replace('\tA = iota\n', '\tZ = iota\n\tA\n'))).toEqual([
      'added Z',
      'modified A',
      'modified B',
    ]);
  });

  it('Java: public and protected members by class, package-private and private ones left out', async () => {
    const before =
      'package p;\npublic class C {\n  public int f() { return 1; }\n  int g() { return 1; }\n  protected static class N { public void h() {} }\n}\n';
    expect(
      await changes('C.java', 'java', before, before.replace('f() { return 1', 'f() { return 2')),
    ).toEqual(['modified C.f']);
    expect(
      await changes('C.java', 'java', before, before.replace('g() { return 1', 'g() { return 2')),
    ).toEqual([]);
    expect(
      await changes('C.java', 'java', before, before.replace('void h() {}', 'void h() { h(); }')),
    ).toEqual(['modified C.N.h']);
    expect(
      await changes('C.java', 'java', before, before.replace('public class C', 'public final class C')),
    ).toEqual(['modified C']);
  });
});
