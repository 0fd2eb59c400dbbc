import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confinedFileSource } from './fileSource.js';
import { type ScanOptions, scanProject as scanBelow } from './projectScan.js';

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

async function scanProject(folder: string, options?: ScanOptions) {
  await using directory = await ConfinedDirectory.confinedTo(folder);
  return await scanBelow(directory, options);
}

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

  describe('in a hostile tree', () => {
    let outside: string;
    beforeEach(() => {
      outside = mkdtempSync(path.join(tmpdir(), 'context-outside-'));
      writeFileSync(path.join(outside, 'secret.ts'), 'export const secret = 1;\n');
      writeFileSync(path.join(outside, '.gitignore'), '*.ts\n');
    });
    afterEach(() => rmSync(outside, { recursive: true, force: true }));

    it('follows no link out of the root and opens no FIFO (it would block): the scan ends with the plain files', async () => {
      write('src/main.ts');
      symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'src/leak.ts'));
      symlinkSync(outside, path.join(root, 'linked'));
      symlinkSync(path.join(outside, '.gitignore'), path.join(root, '.gitignore'));
      execFileSync('mkfifo', [path.join(root, 'src/wedge.ts')]);
      mkdirSync(path.join(root, 'pipes'));
      execFileSync('mkfifo', [path.join(root, 'pipes/.gitignore')]);
      write('pipes/kept.ts');
      const scan = await scanProject(root);
      expect(scan.files.map((file) => file.path)).toEqual(['pipes/kept.ts', 'src/main.ts']);
      expect([...scan.walkedFolders].sort()).toEqual(['', 'pipes', 'src']);
    });

    it('does not follow a folder swapped for a link to outside between its listing and its walk', async () => {
      write('a/one.ts');
      write('b/two.ts');
      const swapped: string[] = [];
      const scan = await scanProject(root, {
        // 'a' is walked before 'b', after the root's listing saw 'b' as a folder.
        beforeFolder: (folder) => {
          if (folder !== 'a') return;
          rmSync(path.join(root, 'b'), { recursive: true });
          symlinkSync(outside, path.join(root, 'b'));
          swapped.push(folder);
        },
      });
      expect(swapped).toEqual(['a']);
      expect(scan.files.map((file) => file.path)).toEqual(['a/one.ts']);
      expect([...scan.walkedFolders].sort()).toEqual(['', 'a']);
    });

    it('reports config files a path-based resolver would open that are not regular files inside', async () => {
      write('src/main.ts');
      write('tsconfig.base.json', '{}');
      symlinkSync('tsconfig.base.json', path.join(root, 'tsconfig.json'));
      execFileSync('mkfifo', [path.join(root, 'package.json')]);
      mkdirSync(path.join(root, 'app'));
      symlinkSync(path.join(outside, '.gitignore'), path.join(root, 'app/jsconfig.json'));
      const scan = await scanProject(root);
      expect(scan.unsafeConfigs).toEqual([
        { path: 'package.json', problem: 'is a FIFO (named pipe), not a regular file' },
        {
          path: 'app/jsconfig.json',
          problem: 'is a link that does not lead to a regular file inside the project',
        },
      ]);
    });

    it('reads nothing through a FIFO or a link to outside swapped in after the scan', async () => {
      write('src/a.ts', 'export const a = 1;\n');
      write('src/b.ts', 'export const b = 1;\n');
      await using directory = await ConfinedDirectory.confinedTo(root);
      const scan = await scanBelow(directory);
      expect(scan.files.map((file) => file.path)).toEqual(['src/a.ts', 'src/b.ts']);
      rmSync(path.join(root, 'src/a.ts'));
      execFileSync('mkfifo', [path.join(root, 'src/a.ts')]);
      rmSync(path.join(root, 'src/b.ts'));
      symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'src/b.ts'));
      const source = confinedFileSource(directory);
      expect(await source.read('src/a.ts', 1024)).toBeUndefined();
      expect(await source.read('src/b.ts', 1024)).toBeUndefined();
    });
  });
});
