import { describe, expect, it } from 'vitest';
import { folderEntries } from './fileCompletion.js';

const files = [
  'main.py',
  'src/util.ts',
  'src/utils/math.ts',
  'src/utils/strings.ts',
  'src/Main.ts',
  'README.md',
];

describe('folderEntries', () => {
  it('lists the top folder when nothing or a bare name is typed, folders ending in /', () => {
    expect(folderEntries(files, '')).toEqual(['README.md', 'main.py', 'src/']);
    expect(folderEntries(files, 'ma')).toEqual(['README.md', 'main.py', 'src/']);
  });

  it('lists one folder level at a time, by whole path', () => {
    expect(folderEntries(files, 'src/u')).toEqual(['src/Main.ts', 'src/util.ts', 'src/utils/']);
    expect(folderEntries(files, 'src/utils/')).toEqual(['src/utils/math.ts', 'src/utils/strings.ts']);
  });

  it('lists nothing for a folder the project does not have', () => {
    expect(folderEntries(files, 'lib/')).toEqual([]);
    expect(folderEntries(files, '../')).toEqual([]);
    expect(folderEntries(files, 'sr/')).toEqual([]);
  });
});
