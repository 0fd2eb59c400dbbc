import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeTransportContract } from '@groundwork/mcp-testkit';
import { generateHistory } from '../bench/generateHistory.js';
import { generateJUnit } from '../bench/generateJUnit.js';
import { clusterFailures } from '../src/core/failureClusters.js';
import { isFailing, testId } from '../src/core/testRun.js';
import { readFixture } from '../src/testing/fixtureRun.js';

const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
// A report big enough that reading it takes seconds on an idle machine too (well past the 500 ms a closing
// stdio server waits for answers in flight), generated (not checked in) under the fixtures so the
// server may read it: the contract cancels a call on it.
const slowReport = await generateJUnit({
  cases: 180_000,
  targetMegabytes: 360,
  seed: 7,
  directory: path.join(fixtures, 'generated'),
});

// A small git history with a planted bug and the report of the run that fails on it, for suspect_commits.
const history = await generateHistory({
  directory: path.join(fixtures, 'generated'),
  commits: 30,
  failures: 3,
});
const suspectFailure = testId({ suite: 'price.test.js', classname: 'price', name: 'prices item 1' });
const mavenClusters = clusterFailures((await readFixture('maven')).tests.values().filter(isFailing));
const mavenCluster = mavenClusters[0]?.id as string;

describeTransportContract({
  serverName: 'groundwork-test-reports',
  bin: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  clientName: 'test-reports-contract-test',
  allowedDir: fixtures,
  sampleCall: { name: 'test_summary', arguments: { path: 'maven' } },
  everyToolCall: [
    { name: 'test_summary', arguments: { path: 'maven' } },
    { name: 'list_failures', arguments: { path: 'maven' } },
    { name: 'failure_context', arguments: { path: 'maven', id: '49f714909e84' } },
    { name: 'flaky_tests', arguments: { paths: ['maven', 'junit-variants/retries.xml'] } },
    { name: 'compare_runs', arguments: { base: 'junit-variants/retries.xml', head: 'maven' } },
    { name: 'export_ctrf', arguments: { path: 'maven' } },
    { name: 'failure_clusters', arguments: { path: 'maven' } },
    {
      name: 'suspect_commits',
      arguments: { path: path.relative(fixtures, history.reports), id: suspectFailure },
    },
  ],
  slowCall: { name: 'test_summary', arguments: { path: path.relative(fixtures, slowReport.file) } },
  promptArguments: {
    'triage-red-ci-run': { path: 'maven', base: 'junit-variants/retries.xml' },
    'explain-failure': { path: 'maven', id: '49f714909e84' },
    'find-flaky-tests': { paths: 'maven, junit-variants/retries.xml' },
    'find-suspect-commits': { path: 'maven', cluster: mavenCluster },
  },
  completionSamples: [
    { prompt: 'triage-red-ci-run', argument: 'path', value: 'mav', offers: 'maven/', path: true },
    {
      prompt: 'triage-red-ci-run',
      argument: 'base',
      value: 'junit-v',
      offers: 'junit-variants/',
      path: true,
    },
    { prompt: 'explain-failure', argument: 'path', value: 'tap/', offers: 'tap/parser.tap', path: true },
    {
      prompt: 'explain-failure',
      argument: 'id',
      value: '49f',
      arguments: { path: 'maven' },
      offers: '49f714909e84',
    },
    { prompt: 'explain-failure', argument: 'root', value: 'mav', offers: 'maven/', path: true },
    { prompt: 'find-flaky-tests', argument: 'paths', value: 'maven, je', offers: 'maven, jest/', path: true },
    {
      prompt: 'find-suspect-commits',
      argument: 'cluster',
      value: mavenCluster.slice(0, 4),
      arguments: { path: 'maven' },
      offers: mavenCluster,
    },
  ],
});
