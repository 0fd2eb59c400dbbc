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
});
