// Workspaces the differential tests write at test time: each npm, Go and Cargo layout the readers must agree
// with the real tools on (globs, excludes, nested members, path dependencies, a lone module beside a workspace).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeTree(root: string, files: Record<string, string>): Promise<string> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export const npmWorkspaces: Record<string, Record<string, string>> = {
  'globs, a listed folder and a negated glob': {
    'package.json': json({
      name: 'root',
      private: true,
      workspaces: ['packages/*', 'tools/c', '!packages/ignored'],
    }),
    'packages/a/package.json': json({ name: '@x/a', version: '1.0.0', dependencies: { '@x/b': '*' } }),
    'packages/b/package.json': json({
      name: '@x/b',
      version: '1.0.0',
      devDependencies: { 'c-tool': '^1.0.0' },
    }),
    'packages/ignored/package.json': json({ name: 'ignored', version: '1.0.0' }),
    'tools/c/package.json': json({ name: 'c-tool', version: '1.0.0', peerDependencies: { '@x/a': '*' } }),
    'examples/d/package.json': json({ name: 'not-a-member', version: '1.0.0' }),
  },
  'workspaces.packages and deep globs': {
    'package.json': json({ name: 'root', private: true, workspaces: { packages: ['libs/**'] } }),
    'libs/one/package.json': json({ name: 'one', version: '0.1.0', optionalDependencies: { two: '0.1.0' } }),
    'libs/group/two/package.json': json({ name: 'two', version: '0.1.0' }),
  },
};

export const goWorkspaces: Record<string, Record<string, string>> = {
  'go.work with two modules and a lone module beside them': {
    'go.work': 'go 1.19\n\nuse (\n\t./a\n\t./b\n)\n',
    'a/go.mod':
      'module example.com/a\n\ngo 1.19\n\nrequire example.com/b v0.0.0\n\nreplace example.com/b => ../b\n',
    'a/a.go': 'package a\n\nimport _ "example.com/b"\n',
    'b/go.mod': 'module example.com/b // the library\n\ngo 1.18\n',
    'b/b.go': 'package b\n',
    'lone/go.mod':
      'module example.com/lone\n\ngo 1.19\n\nrequire (\n\texample.com/helper v0.0.0\n)\n\nreplace example.com/helper => ./helper\n',
    'lone/lone.go': 'package lone\n\nimport _ "example.com/helper"\n',
    'lone/helper/go.mod': 'module example.com/helper\n\ngo 1.19\n',
    'lone/helper/helper.go': 'package helper\n',
  },
};

const crate = (name: string, version: string, extra = '') =>
  `[package]\nname = "${name}"\nversion = "${version}"\nedition = "2021"\n${extra}`;

export const cargoWorkspaces: Record<string, Record<string, string>> = {
  'globs, workspace dependencies, exclude and a path dependency outside the globs': {
    'Cargo.toml':
      '[workspace]\nmembers = ["crates/*"]\nexclude = ["crates/skipped"]\nresolver = "2"\n\n[workspace.package]\nrust-version = "1.70"\n\n[workspace.dependencies]\nb = { path = "crates/b" }\n',
    'crates/a/Cargo.toml': crate(
      'a',
      '0.1.0',
      'rust-version.workspace = true\n\n[dependencies]\nb.workspace = true\n\n[dev-dependencies]\nc = { path = "../../tools/c" }\n\n[target.\'cfg(unix)\'.build-dependencies]\nrenamed = { package = "b", path = "../b" }\n',
    ),
    'crates/a/src/lib.rs': '',
    'crates/b/Cargo.toml': crate('b', '0.2.0'),
    'crates/b/src/lib.rs': '',
    'crates/skipped/Cargo.toml': crate('skipped', '0.0.1'),
    'crates/skipped/src/lib.rs': '',
    'tools/c/Cargo.toml': crate('c', '0.3.0'),
    'tools/c/src/lib.rs': '',
  },
  'a root package that is also the workspace': {
    'Cargo.toml': `${crate('app', '1.0.0', '\n[dependencies]\ncore = { path = "core", version = "0.1" }\n')}\n[workspace]\nmembers = ["core"]\n`,
    'src/main.rs': 'fn main() {}\n',
    'core/Cargo.toml': crate('core', '0.1.0'),
    'core/src/lib.rs': '',
  },
};
