import { fileURLToPath } from 'node:url';
import { describeTransportContract } from '@groundwork/mcp-testkit';

describeTransportContract({
  serverName: 'groundwork-context',
  bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  clientName: 'context-contract-test',
  allowedDir: fileURLToPath(new URL('./fixtures', import.meta.url)),
  sampleCall: { name: 'project_tree', arguments: { path: 'python-app' } },
});
