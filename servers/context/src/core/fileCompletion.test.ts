import { describe, expect, it } from 'vitest';
import { fileCompletions } from './fileCompletion.js';

const files = [
  'main.py',
  'src/util.ts',
  'src/utils/math.ts',
  'src/utils/strings.ts',
  'src/Main.ts',
  'README.md',
];

describe('fileCompletions', () => {
  it('offers the entries of the top folder, folders ending in /', () => {
    expect(fileCompletions(files, '')).toEqual(['README.md', 'main.py', 'src/']);
  });

  it('offers one folder level at a time, matching the last segment case-insensitively', () => {
    expect(fileCompletions(files, 'src/u')).toEqual(['src/util.ts', 'src/utils/']);
    expect(fileCompletions(files, 'src/m')).toEqual(['src/Main.ts']);
    expect(fileCompletions(files, 'src/utils/')).toEqual(['src/utils/math.ts', 'src/utils/strings.ts']);
  });

  it('normalizes the typed value as file arguments are normalized', () => {
    expect(fileCompletions(files, './src\\utils//s')).toEqual(['src/utils/strings.ts']);
  });

  it('offers nothing for a folder the project does not have', () => {
    expect(fileCompletions(files, 'lib/')).toEqual([]);
    expect(fileCompletions(files, '../')).toEqual([]);
  });
});
