import { describe, expect, it } from 'vitest';
import { parseGoDirectives } from './goModules.js';

describe('parseGoDirectives', () => {
  it('expands blocks, drops comments and keeps quoted paths whole', () => {
    const text =
      'module example.com/a // the module\n\ngo 1.21\n\nrequire (\n\texample.com/b v1.2.3 // indirect\n\t"example.com/c d" v0.1.0\n)\nreplace example.com/b => ../b\n';
    expect(parseGoDirectives(text)).toEqual([
      { verb: 'module', args: ['example.com/a'], line: 1 },
      { verb: 'go', args: ['1.21'], line: 3 },
      { verb: 'require', args: ['example.com/b', 'v1.2.3'], line: 6 },
      { verb: 'require', args: ['example.com/c d', 'v0.1.0'], line: 7 },
      { verb: 'replace', args: ['example.com/b', '=>', '../b'], line: 9 },
    ]);
  });
});
