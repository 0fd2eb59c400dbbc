// The transport contract, run against the fixture server exactly as a server runs it.
import { describeTransportContract } from '../src/index.js';
import { fixtureBin, fixtureDir } from './fixtureServer.js';

describeTransportContract({
  serverName: 'groundwork-fixture',
  bin: fixtureBin,
  clientName: 'testkit-contract-test',
  allowedDir: fixtureDir,
  sampleCall: { name: 'echo', arguments: { text: 'hello' } },
  // An hour: it ends only when cancelled, however loaded the machine (no check waits for it).
  slowCall: { name: 'wait', arguments: { milliseconds: 3_600_000 } },
  promptArguments: { 'echo-a-file': { file: 'files/hello.txt' } },
  completionSamples: [
    { prompt: 'echo-a-file', argument: 'file', value: 'files/h', offers: 'files/hello.txt', path: true },
    { prompt: 'echo-a-file', argument: 'volume', value: 'LO', offers: 'loud' },
  ],
});
