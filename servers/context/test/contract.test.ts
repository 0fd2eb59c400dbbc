import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeTransportContract, type TransportContractSpec } from '@groundwork/mcp-testkit';
import { generateRepo } from '../bench/generateRepo.js';

const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
let seed = 0;
type CompletionSamples = NonNullable<TransportContractSpec['completionSamples']>;

describeTransportContract({
  serverName: 'groundwork-context',
  bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  clientName: 'context-contract-test',
  allowedDir: fixtures,
  sampleCall: { name: 'project_tree', arguments: { path: 'python-app' } },
  everyToolCall: [
    { name: 'project_tree', arguments: { path: 'ts-app' } },
    { name: 'find_context', arguments: { path: 'ts-app', file: 'src/main.ts', direction: 'both' } },
    { name: 'symbols', arguments: { path: 'go-app', file: 'internal/cart/cart.go' } },
    { name: 'estimate_tokens', arguments: { path: 'ts-app', files: ['src/main.ts'] } },
    { name: 'context_bundle', arguments: { path: 'ts-app', files: ['src/main.ts'], budget_tokens: 3000 } },
    { name: 'change_impact', arguments: { path: 'ts-app', files: ['src/main.ts'] } },
  ],
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
    'prepare-edit-context': { path: 'ts-app', file: 'src/main.ts', budget_tokens: '3000' },
    'assess-edit-impact': { path: 'go-app', file: 'internal/cart/cart.go', symbol: 'New' },
    'what-to-test': { path: 'ts-app', files: 'src/utils/math.ts' },
  },
  completionSamples: ['prepare-edit-context', 'assess-edit-impact'].flatMap(
    (prompt): CompletionSamples => [
      { prompt, argument: 'path', value: 'ts-', offers: 'ts-app/', path: true },
      { prompt, argument: 'file', value: 'src/ut', arguments: { path: 'ts-app' }, offers: 'src/utils/' },
      {
        prompt,
        argument: 'symbol',
        value: 'c',
        arguments: { path: 'go-app', file: 'internal/cart/cart.go' },
        offers: 'Cart',
      },
    ],
  ),
});
