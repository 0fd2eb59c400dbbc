import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeTransportContract } from '@groundwork/mcp-testkit';
import { generateRepo } from '../bench/generateRepo.js';

const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
let seed = 0;

describeTransportContract({
  serverName: 'groundwork-context',
  bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  clientName: 'context-contract-test',
  allowedDir: fixtures,
  sampleCall: { name: 'project_tree', arguments: { path: 'python-app' } },
  // A cold index of a generated repository (not checked in) takes long enough to cancel; the server
  // caches what it parsed, so every use gets a repository of its own.
  slowCall: () => ({
    name: 'project_tree',
    arguments: {
      path: path.relative(fixtures, generateRepo(path.join(fixtures, 'generated'), 6_000, ++seed)),
      max_files: 10,
    },
  }),
  promptArguments: {
    'prepare-edit-context': { path: 'python-app', file: 'main.py', symbol: 'run' },
    'assess-edit-impact': { path: 'python-app', file: 'main.py' },
  },
  completionSamples: [
    { prompt: 'prepare-edit-context', argument: 'path', value: 'pyth', offers: 'python-app/', path: true },
    {
      prompt: 'prepare-edit-context',
      argument: 'file',
      value: 'ma',
      arguments: { path: 'python-app' },
      offers: 'main.py',
    },
    {
      prompt: 'assess-edit-impact',
      argument: 'symbol',
      value: 'r',
      arguments: { path: 'python-app', file: 'main.py' },
      offers: 'run',
    },
  ],
});
