import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanProject } from './projectScan.js';

let root: string;

function write(relative: string, content: string | Buffer = 'x'): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'context-scan-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('scanProject', () => {
  it('lists files relative to the root with / separators, sorted, and the folders it walked', async () => {
    write('src/b.ts');
    write('src/a/deep.ts');
    write('README.md');
    const scan = await scanProject(root);
    expect(scan.files.map((file) => file.path)).toEqual(['README.md', 'src/a/deep.ts', 'src/b.ts']);
    expect([...scan.walkedFolders].sort()).toEqual(['', 'src', 'src/a']);
  });

  it('skips dependency folders, build output, vendored code and tool caches', async () => {
    write('src/index.ts');
    for (const folder of [
      'node_modules/x',
      'dist',
      'build',
      'out',
      'target',
      '.next',
      'coverage',
      'vendor',
      '.git',
    ]) {
      write(`${folder}/file.js`);
    }
    const scan = await scanProject(root);
    expect(scan.files.map((file) => file.path)).toEqual(['src/index.ts']);
  });

  it('honours .gitignore, nested ones too, including a nested re-include', async () => {
    write('.gitignore', 'generated/\n*.log\n');
    write('app/.gitignore', 'secret.ts\n!keep.log\n');
    write('generated/api.ts');
    write('debug.log');
    write('app/secret.ts');
    write('app/keep.log');
    write('app/main.ts');
    write('other/secret.ts');
    const scan = await scanProject(root);
    expect(scan.files.map((file) => file.path)).toEqual([
      '.gitignore',
      'app/.gitignore',
      'app/keep.log',
      'app/main.ts',
      'other/secret.ts',
    ]);
  });

  it('skips binary files, lockfiles, minified bundles and files over the size cap', async () => {
    write('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]));
    write('pnpm-lock.yaml');
    write('lib.min.js');
    write('big.ts', 'x'.repeat(2048));
    write('small.ts');
    const scan = await scanProject(root, { maxFileBytes: 1024 });
    expect(scan.files.map((file) => file.path)).toEqual(['small.ts']);
    expect(scan.skippedLarge).toBe(1);
  });

  it('stops at maxFiles and says so', async () => {
    for (let index = 0; index < 5; index++) write(`f${index}.ts`);
    const scan = await scanProject(root, { maxFiles: 3 });
    expect(scan.files).toHaveLength(3);
    expect(scan.truncated).toBe(true);
  });

  it('stops when the caller aborts', async () => {
    write('a.ts');
    const controller = new AbortController();
    controller.abort();
    await expect(scanProject(root, { signal: controller.signal })).rejects.toMatchObject({
      code: 'CANCELLED',
    });
  });
});
