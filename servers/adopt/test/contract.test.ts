import { fileURLToPath } from 'node:url';
import { describeTransportContract } from '@groundwork/mcp-testkit';

describeTransportContract({
  serverName: 'groundwork-adopt',
  bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  clientName: 'adopt-contract-test',
  allowedDir: fileURLToPath(new URL('./fixtures', import.meta.url)),
  sampleCall: { name: 'verify_repo', arguments: { path: 'conventional-repo' } },
});
