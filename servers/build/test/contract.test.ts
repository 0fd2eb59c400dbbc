import { fileURLToPath } from 'node:url';
import { describeTransportContract } from '@groundwork/mcp-testkit';

describeTransportContract({
  serverName: 'groundwork-build',
  bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  clientName: 'build-contract-test',
  allowedDir: fileURLToPath(new URL('./fixtures', import.meta.url)),
  sampleCall: { name: 'build_workspace', arguments: { path: 'gradle-kotlin' } },
  taskCall: { name: 'build_dependencies', arguments: { path: 'gradle-kotlin', module: ':app' } },
  promptArguments: { 'explain-build': { path: 'gradle-kotlin', module: ':app' } },
  completionSamples: [
    { prompt: 'explain-build', argument: 'path', value: 'gradle-k', offers: 'gradle-kotlin/', path: true },
    {
      prompt: 'explain-build',
      argument: 'module',
      value: ':a',
      arguments: { path: 'gradle-kotlin' },
      offers: ':app',
    },
  ],
});
