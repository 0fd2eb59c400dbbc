import { fileURLToPath } from 'node:url';
import { describeTransportContract } from '@groundwork/mcp-testkit';
import { ensureSlowFixture } from './slowFixture.js';

describeTransportContract({
  serverName: 'groundwork-data',
  bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  clientName: 'data-contract-test',
  allowedDir: fileURLToPath(new URL('./fixtures', import.meta.url)),
  sampleCall: { name: 'uniqueness_check', arguments: { file: 'people.csv', columns: ['id'] } },
  slowCall: { name: 'find_keys', arguments: { file: ensureSlowFixture(), max_columns: 3 } },
  promptArguments: {
    'find-table-key': { file: 'people.csv' },
    'check-key-unique': { file: 'people.csv', columns: 'id' },
    'profile-a-dataset': { file: 'people.csv', columns: 'id, email' },
  },
  completionSamples: [
    { prompt: 'find-table-key', argument: 'file', value: 'peo', offers: 'people.csv', path: true },
    {
      prompt: 'check-key-unique',
      argument: 'columns',
      value: 'em',
      arguments: { file: 'people.csv' },
      offers: 'email',
    },
    { prompt: 'check-key-unique', argument: 'compare', value: 'L', offers: 'loose' },
  ],
});
