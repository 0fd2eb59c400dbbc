// `pnpm bundle`: one MCP bundle (.mcpb, one-click install in Claude Desktop) per server in release/, for
// the platform this runs on (native dependencies such as better-sqlite3 and oxc-parser are per platform).
// Each bundle is the server's npm tarball installed with its production dependencies (from the npm
// registry npm is configured with), a manifest validated by @anthropic-ai/mcpb's own `validate`, packed
// by `mcpb pack`. Needs built servers (`pnpm build`); reuses tarballs `pnpm release` has made.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { binOf, bundleManifestOf, packageOf, repoRoot, SERVERS } from './servers.mjs';
import { npmEnvironment, packServer, releaseDir, run, toolsOf } from './steps.mjs';

const mcpb = path.join(repoRoot, 'node_modules/.bin/mcpb');
// Options after `--` go to npm install, e.g. `pnpm bundle -- --omit=optional` leaves out better-sqlite3.
const npmOptions = process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [];

// Claude Desktop passes each allowed directory as an argument of its own; the server takes --allowed-dir.
const LAUNCHER = (
  pkgName,
  bin,
) => `// Claude Desktop passes the allowed directories as arguments; ${bin} takes each as --allowed-dir.
const directories = process.argv.splice(2);
for (const directory of directories) process.argv.push('--allowed-dir', directory);
await import('../node_modules/${pkgName}/dist/bin.js');
`;

// Not needed to run: types, source maps, documentation (licences, skills and usage documents stay); the tree-sitter grammar packages'
// C sources and native prebuilds (context loads only their .wasm, through web-tree-sitter); gpt-tokenizer's
// browser builds, TypeScript sources and the vocabularies no answer is measured with.
const IGNORE = [
  'node_modules/@groundwork/*/dist/*.v8cache',
  'node_modules/@groundwork/*/dist/*.verified',
  'node_modules/**/*.d.ts',
  'node_modules/**/*.d.mts',
  'node_modules/**/*.d.cts',
  'node_modules/**/*.map',
  'node_modules/**/*.md',
  // …except what a server serves: its skills (SKILL.md and their files) and its usage document.
  '!node_modules/@groundwork/*/skills/**',
  '!node_modules/@groundwork/*/MCP_USAGE.md',
  'node_modules/tree-sitter-*/src/',
  'node_modules/tree-sitter-*/prebuilds/',
  'node_modules/@tree-sitter-grammars/*/src/',
  'node_modules/@tree-sitter-grammars/*/prebuilds/',
  'node_modules/gpt-tokenizer/dist/',
  'node_modules/gpt-tokenizer/src/',
  // Of its vocabularies only data/o200k_base.tiktoken is read (answers are measured with it); install-test
  // checks each bundle has it and none of the others.
  'node_modules/gpt-tokenizer/data/*',
  '!node_modules/gpt-tokenizer/data/o200k_base.tiktoken',
  'package-lock.json',
  '',
].join('\n');

/** All four at once: most of a bundle's time is npm downloading and mcpb compressing. */
export function bundleAll() {
  return Promise.all(SERVERS.map(bundle));
}

async function bundle(server) {
  const started = performance.now();
  const lap = (what) =>
    process.stderr.write(
      `bundle: ${server.dir} ${what} at ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  const pkg = await packageOf(server);
  const bin = binOf(pkg);
  const tarballName = `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`;
  const tarball = existsSync(path.join(releaseDir, tarballName))
    ? path.join(releaseDir, tarballName)
    : await packServer(server, pkg);
  const stage = path.join(releaseDir, 'bundles', bin);
  await rm(stage, { recursive: true, force: true });
  await mkdir(path.join(stage, 'server'), { recursive: true });
  await writeFile(
    path.join(stage, 'package.json'),
    `${JSON.stringify({ name: `${bin}-bundle`, version: pkg.version, private: true }, null, 2)}\n`,
  );
  await run(
    'npm',
    ['install', '--omit=dev', ...npmOptions, '--no-audit', '--no-fund', '--no-save', tarball],
    {
      cwd: stage,
      env: npmEnvironment(),
    },
  );
  lap('installed');
  await writeFile(path.join(stage, 'server/index.mjs'), LAUNCHER(pkg.name, bin));
  const scratch = await mkdtemp(path.join(tmpdir(), 'groundwork-bundle-'));
  let tools;
  try {
    tools = await toolsOf(process.execPath, [path.join(stage, 'server/index.mjs'), scratch]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  lap('listed its tools');
  const manifest = path.join(stage, 'manifest.json');
  await writeFile(manifest, `${JSON.stringify(bundleManifestOf(server, pkg, tools), null, 2)}\n`);
  await writeFile(path.join(stage, '.mcpbignore'), IGNORE);
  await run(mcpb, ['validate', manifest]);
  const output = path.join(releaseDir, `${bin}-${pkg.version}-${process.platform}-${process.arch}.mcpb`);
  await run(mcpb, ['pack', stage, output]);
  lap('packed');
  return output;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const file of await bundleAll()) process.stdout.write(`${path.relative(repoRoot, file)}\n`);
}
