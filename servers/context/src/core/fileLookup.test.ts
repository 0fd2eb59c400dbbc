import { describe, expect, it } from 'vitest';
import { DependencyGraph } from './dependencyGraph.js';
import { closestFiles, lookupFile } from './fileLookup.js';

const graph = new DependencyGraph(
  ['src/main.ts', 'src/utils/index.ts', 'lib/index.ts', 'README.md'].map((path) => ({
    path,
    size: 1,
    dependencies: [],
    externals: [],
  })),
);

describe('lookupFile', () => {
  it('accepts ./ prefixes and backslashes', () => {
    expect(lookupFile(graph, './src\\main.ts')).toBe('src/main.ts');
  });

  it('rejects an unknown file, naming it and suggesting close matches', () => {
    expect(() => lookupFile(graph, 'src/mian.ts')).toThrow(
      /^Invalid argument 'file': 'src\/mian\.ts' is not a source file.*Did you mean: src\/main\.ts/,
    );
  });
});

describe('closestFiles', () => {
  it('puts files of the same name in other folders first', () => {
    expect(closestFiles([...graph.files.keys()], 'index.ts', 2)).toEqual([
      'lib/index.ts',
      'src/utils/index.ts',
    ]);
  });

  it('suggests nothing for a name unlike any file', () => {
    expect(closestFiles([...graph.files.keys()], 'zzzzzzzzzz.py', 3)).toEqual([]);
  });
});
