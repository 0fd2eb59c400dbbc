import { fileURLToPath } from 'node:url';
import { describeTransportContract } from '@groundwork/mcp-testkit';

describeTransportContract({
  serverName: 'groundwork-test-reports',
  bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  clientName: 'test-reports-contract-test',
  allowedDir: fileURLToPath(new URL('./fixtures', import.meta.url)),
  sampleCall: { name: 'test_summary', arguments: { path: 'maven' } },
});
