// A copy of this checkout for `pnpm release` to bump, build and pack, so the test never changes the
// working tree it runs in. Files are those git would commit (tracked and untracked-but-not-ignored);
// node_modules are the checkout's own: the root one linked, each package's (pnpm's relative links into
// the root store and to sibling workspace packages) copied as links.
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir, symlink } from 'node:fs/promises';
import path from 'node:path';

export async function copyCheckout(root: string, target: string): Promise<void> {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((file) => file !== '');
  for (const file of files) {
    await mkdir(path.dirname(path.join(target, file)), { recursive: true });
    // A tracked file deleted in the working tree is simply not copied.
    await cp(path.join(root, file), path.join(target, file), { verbatimSymlinks: true }).catch((error) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await symlink(path.join(root, 'node_modules'), path.join(target, 'node_modules'));
  for (const group of ['packages', 'servers']) {
    for (const name of await readdir(path.join(root, group))) {
      const modules = path.join(root, group, name, 'node_modules');
      await cp(modules, path.join(target, group, name, 'node_modules'), {
        recursive: true,
        verbatimSymlinks: true,
      }).catch((error) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
  }
}
