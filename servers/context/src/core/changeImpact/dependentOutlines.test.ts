import { describe, expect, it } from 'vitest';
import type { FileSource } from '../fileSource.js';
import type { ProjectScan } from '../projectScan.js';
import { dependentSignature } from './dependentOutlines.js';

const scanOf = (size: number, mtimeMs: number): ProjectScan => ({
  files: [{ path: 'src/a.ts', size, mtimeMs }],
  unsafeConfigs: [],
  nodeModulesParents: [],
  walkedFolders: [''],
  skippedLarge: 0,
  truncated: false,
});

describe('dependentSignature', () => {
  it('is read once per file version: again when the scan shows another size or time', async () => {
    let text = 'export const one = 1;\n';
    const reads: string[] = [];
    const source: FileSource = {
      read: async (file) => {
        reads.push(file);
        return Buffer.from(text);
      },
      readTexts: () => {
        throw new Error('not used');
      },
    };
    const root = `/dependent-outlines-${Math.random()}`;
    const first = await dependentSignature(root, scanOf(22, 1), source, 'src/a.ts', 1, undefined);
    expect(first?.entry.outline).toContain('export const one');
    expect(first?.tokens).toBeGreaterThan(5);
    expect(await dependentSignature(root, scanOf(22, 1), source, 'src/a.ts', 1, undefined)).toEqual(first);
    // Another distance is another entry (its JSON differs), from the same outline.
    const further = await dependentSignature(root, scanOf(22, 1), source, 'src/a.ts', 12, undefined);
    expect(further?.entry).toEqual({ ...first?.entry, distance: 12 });
    expect(reads).toEqual(['src/a.ts']);
    text = 'export const two = 2;\n';
    const edited = await dependentSignature(root, scanOf(22, 2), source, 'src/a.ts', 1, undefined);
    expect(edited?.entry.outline).toContain('export const two');
    expect(reads).toEqual(['src/a.ts', 'src/a.ts']);
  });
});
