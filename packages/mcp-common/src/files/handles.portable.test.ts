// The same specification on the portable path, as on a system without /proc/self/fd (macOS, BSD): children
// are named by their walked real path and the opened file is matched to it by device and inode.
import { describe, expect, it, vi } from 'vitest';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return { ...fs, existsSync: (file: string) => file !== '/proc/self/fd' && fs.existsSync(file) };
});

await import('./handles.test.js');

const { AllowedPaths } = await import('./allowedPaths.js');

describe('without /proc/self/fd', () => {
  it('really runs the portable path: no descriptor paths are handed out', async () => {
    const here = await AllowedPaths.under(process.cwd());
    await using file = await here.openFile('package.json');
    expect(file.descriptorPath).toBeUndefined();
  });
});
