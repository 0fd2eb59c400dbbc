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
