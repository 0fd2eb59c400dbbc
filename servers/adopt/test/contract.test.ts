import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeTransportContract } from '@groundwork/mcp-testkit';
import { afterAll } from 'vitest';
import { plainRepo } from '../src/testing/buildToolRepos.js';
import { createBareRemote } from '../src/testing/gitFixtures.js';

const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
// adopt_repo's call in everyToolCall dry-runs a remote made here, inside the allowed directory.
await mkdir(path.join(fixtures, '.tmp'), { recursive: true });
const scratch = await mkdtemp(path.join(fixtures, '.tmp', 'contract-'));
const remote = await createBareRemote(plainRepo, 'main', scratch);
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describeTransportContract({
  serverName: 'groundwork-adopt',
  bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  clientName: 'adopt-contract-test',
  allowedDir: fixtures,
  sampleCall: { name: 'verify_repo', arguments: { path: 'conventional-repo' } },
  everyToolCall: [
    { name: 'verify_repo', arguments: { path: 'conventional-repo' } },
    { name: 'session_cost', arguments: { path: 'conventional-repo' } },
    { name: 'doctor', arguments: { path: 'real/shanraisshan__claude-code-best-practice' } },
    {
      name: 'adopt_repo',
      arguments: {
        repository_url: remote.url,
        workspace: path.relative(fixtures, path.join(scratch, 'ws')),
        dry_run: true,
        retries: 0,
      },
    },
  ],
  // A refused connection retried five times sits in backoff for a minute unless the cancellation reaches it.
  slowCall: {
    name: 'adopt_repo',
    arguments: { repository_url: 'http://127.0.0.1:9/demo.git', dry_run: true, retries: 5 },
  },
  // verify_repo is fast and never a task; adopt_repo is. Without retries the clone of a remote that does not
  // exist ends at once, and its result (a report of the failed clone) must be the same whether it ran as a
  // task or not; a refused connection would not do, since git's message says how many ms connecting took.
  taskCall: {
    name: 'adopt_repo',
    arguments: { repository_url: `${remote.url}-missing`, dry_run: true, retries: 0 },
  },
  promptArguments: {
    'make-repo-agent-ready': { path: 'conventional-repo', assets: 'true' },
    'fix-agent-config': { path: 'broken-repo', rule: 'skill/*' },
  },
  completionSamples: [
    {
      prompt: 'make-repo-agent-ready',
      argument: 'path',
      value: 'conv',
      offers: 'conventional-repo/',
      path: true,
    },
    { prompt: 'make-repo-agent-ready', argument: 'assets', value: 'T', offers: 'true' },
    { prompt: 'fix-agent-config', argument: 'path', value: 'bro', offers: 'broken-repo/', path: true },
    { prompt: 'fix-agent-config', argument: 'rule', value: 'skill/n', offers: 'skill/name-folder' },
  ],
});
