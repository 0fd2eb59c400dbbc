// `pnpm release [--publish] [-- npm install options for the bundles]`: the one release command.
//  1. `changeset version`: bumps the four servers together (a fixed group in .changeset/config.json)
//     from the pending changesets and writes each CHANGELOG.md;
//  2. server.json files follow the new version;
//  3. builds the servers (the version is compiled into `--version` and the initialize result);
//  4. packs one npm tarball per server into release/ and builds one MCP bundle per server (bundle.mjs);
//  5. with --publish, publishes the tarballs to the registry npm is configured with
//     (`npm_config_registry`; CI points it at a local verdaccio, never at the public registry).
// Committing and tagging stay with the person releasing.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { bundleAll } from './bundle.mjs';
import { packageOf, repoRoot, SERVERS } from './servers.mjs';
import { npmEnvironment, packServer, pnpm, releaseDir, run } from './steps.mjs';

const publish = process.argv.includes('--publish');
const changeset = path.join(repoRoot, 'node_modules/.bin/changeset');

/** Runs one step and says on stderr how long it took. */
async function step(name, action) {
  const started = performance.now();
  const result = await action();
  process.stderr.write(`release: ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  return result;
}

const pending = (await readdir(path.join(repoRoot, '.changeset'))).filter(
  (file) => file.endsWith('.md') && file !== 'README.md',
);
if (pending.length > 0)
  await step('versions and changelogs', () => run(changeset, ['version'], { cwd: repoRoot }));
else process.stderr.write('release: no pending changesets; releasing the current versions.\n');
await step('server.json', () =>
  run(process.execPath, [path.join(repoRoot, 'scripts/release/serverJson.mjs')], { cwd: repoRoot }),
);
await step('build', () =>
  pnpm(['exec', 'turbo', 'run', 'build', ...SERVERS.map((server) => `--filter=./${server.dir}`)], {
    cwd: repoRoot,
  }),
);
await rm(releaseDir, { recursive: true, force: true });
const tarballs = await step('npm tarballs', async () => {
  const files = [];
  for (const server of SERVERS) files.push(await packServer(server, await packageOf(server)));
  return files;
});
const bundles = await step('MCP bundles', bundleAll);
if (publish) {
  await step('publish', async () => {
    for (const tarball of tarballs)
      await run('npm', ['publish', tarball], { cwd: repoRoot, env: npmEnvironment() });
  });
}
for (const file of [...tarballs, ...bundles]) process.stdout.write(`${path.relative(repoRoot, file)}\n`);
