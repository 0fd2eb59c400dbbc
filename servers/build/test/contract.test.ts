import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeTransportContract } from '@groundwork/mcp-testkit';
import { afterAll } from 'vitest';
import { toolPresent, writeTree } from './run/builds.js';

// The checked-in fixtures are copied next to a small Groovy Gradle build that Debian's Gradle 4.4.1 runs, so the
// running tools are called too (the server is started with build execution allowed); a build writes into its
// folder, which therefore is a scratch copy, never the checkout.
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
const allowedDir = await mkdtemp(path.join(tmpdir(), 'build-contract-'));
await cp(path.join(fixtures, 'gradle-kotlin'), path.join(allowedDir, 'gradle-kotlin'), { recursive: true });
await writeTree(path.join(allowedDir, 'gradle-groovy'), {
  'settings.gradle': "rootProject.name = 'groovy'\n",
  'build.gradle': `task stamp {
  def out = file("$buildDir/stamp.txt")
  inputs.property('flavor', project.findProperty('flavor') ?: 'plain')
  outputs.file(out)
  doLast { out.text = 'stamped' }
}
`,
});
// A script that runs until its process group is killed: the contract's cancellation checks need a call that
// only ends when cancelled, and npm is on every machine that runs these tests.
await writeTree(path.join(allowedDir, 'npm-forever'), {
  'package.json': JSON.stringify({
    name: 'npm-forever',
    private: true,
    scripts: { forever: 'node -e "setInterval(() => {}, 1 << 30)"' },
  }),
});
afterAll(async () => {
  await rm(allowedDir, { recursive: true, force: true });
});

describeTransportContract({
  serverName: 'groundwork-build',
  bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  clientName: 'build-contract-test',
  allowedDir,
  env: { GROUNDWORK_ALLOW_BUILD_EXECUTION: '1' },
  sampleCall: { name: 'build_workspace', arguments: { path: 'gradle-kotlin' } },
  taskCall: { name: 'build_dependencies', arguments: { path: 'gradle-kotlin', module: ':app' } },
  slowCall: { name: 'build_run', arguments: { path: 'npm-forever', system: 'npm', tasks: ['forever'] } },
  // Without Gradle (outside CI) the running tools cannot answer; under CI toolPresent is always true.
  ...(toolPresent('gradle')
    ? {
        everyToolCall: [
          { name: 'build_workspace', arguments: { path: 'gradle-kotlin' } },
          { name: 'build_dependencies', arguments: { path: 'gradle-kotlin', module: ':app' } },
          { name: 'build_why', arguments: { path: 'gradle-kotlin', dependency: 'guava' } },
          { name: 'build_health', arguments: { path: 'gradle-kotlin' } },
          { name: 'build_run', arguments: { path: 'gradle-groovy', tasks: ['stamp'] } },
          { name: 'build_log', arguments: { run_id: 'latest' } },
          {
            name: 'build_cache_explain',
            arguments: { path: 'gradle-groovy', tasks: ['stamp'], properties: { flavor: 'paid' } },
          },
        ],
      }
    : {}),
  promptArguments: {
    'explain-build': { path: 'gradle-kotlin', module: ':app', configuration: 'implementation' },
    'explain-cache-miss': { path: 'gradle-groovy', task: ':stamp' },
  },
  completionSamples: [
    { prompt: 'explain-build', argument: 'path', value: 'gradle-k', offers: 'gradle-kotlin/', path: true },
    {
      prompt: 'explain-build',
      argument: 'module',
      value: ':a',
      arguments: { path: 'gradle-kotlin' },
      offers: ':app',
    },
    {
      prompt: 'explain-build',
      argument: 'configuration',
      value: 'impl',
      arguments: { path: 'gradle-kotlin' },
      offers: 'implementation',
    },
    {
      prompt: 'explain-cache-miss',
      argument: 'path',
      value: 'gradle-g',
      offers: 'gradle-groovy/',
      path: true,
    },
    {
      prompt: 'explain-cache-miss',
      argument: 'task',
      value: ':app:b',
      arguments: { path: 'gradle-kotlin' },
      offers: ':app:build',
    },
  ],
});
