// A retried test's signature is its last failure's, never the first's, and a test that passed on a retry is
// in no cluster: read for signatures (frames worked out as read) or not, alike.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { accessUnder, readAt } from '../testing/fixtureRun.js';
import { clusterFailures } from './failureClusters.js';
import { signatureOf } from './failureSignature.js';
import { type FoldedTest, isFailing } from './testRun.js';

const failure = (message: string, frame: string) =>
  `<failure message="${message}" type="java.lang.AssertionError">java.lang.AssertionError: ${message}\n\tat com.acme.${frame}\n\tat org.junit.Assert.fail(Assert.java:89)</failure>`;

// Each attempt a <testcase> of its own, as runners that retry write them.
const report = `<?xml version="1.0"?>
<testsuite name="s">
  <testcase classname="c" name="retried">${failure('first 1', 'A.a(A.java:1)')}</testcase>
  <testcase classname="c" name="retried">${failure('second 2', 'B.b(B.java:2)')}</testcase>
  <testcase classname="c" name="flaky">${failure('once 3', 'C.c(C.java:3)')}</testcase>
  <testcase classname="c" name="flaky"/>
  <testcase classname="c" name="steady">${failure('second 4', 'B.b(B.java:2)')}</testcase>
</testsuite>
`;

let directory = '';
afterAll(async () => {
  if (directory !== '') await rm(directory, { recursive: true, force: true });
});

it('is each failing test’s as it stands after its last attempt', async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'folded-signatures-'));
  const file = path.join(directory, 'report.xml');
  await writeFile(file, report);
  const access = await accessUnder(directory);
  const asRead = await readAt(access, file, { details: true, signatures: true });
  const afresh = await readAt(access, file, { details: true });
  const failing = asRead.tests.values().filter(isFailing);
  expect(failing.map((test) => test.name)).toEqual(['retried', 'steady']);
  for (const test of failing) {
    const same = afresh.tests.values().find((other) => other.name === test.name);
    expect(signatureOf(test), test.name).toEqual(signatureOf(same ?? test));
  }
  expect(signatureOf(failing[0] as FoldedTest)).toEqual({
    type: 'AssertionError',
    message: 'second <n>',
    frame: 'B.java:2',
  });
  // One cause: the retried test's last failure and the steady one's.
  expect(clusterFailures(failing).map((cluster) => cluster.count)).toEqual([2]);
});
