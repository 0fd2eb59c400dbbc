// The signature's type and message worked out once per distinct report type and message (a bounded memo),
// and clusters looked up by type, then message, then frame, against the code they replaced, kept here
// verbatim: on generated failures, asked in an order that empties the memo midway and asks again, every
// type, message, cluster id, count, member list and suite list is the same.
import { seededRandom } from '@groundwork/mcp-testkit';
import { describe, expect, it } from 'vitest';
import { clusterFailures, clusterId } from './failureClusters.js';
import { maskVarying, signatureOf } from './failureSignature.js';
import type { FoldedTest } from './testRun.js';

/** signatureOf's type and message as they were, worked out for every failure. */
function partsAsBefore(reportType: string | undefined, message: string): { type: string; message: string } {
  const rawMessage = message.trim();
  const opening = /^([\w$.]*(?:Error|Exception|Failure|Panic|panic))(?::\s*|\s*$)/.exec(rawMessage);
  const declared =
    reportType !== undefined && /^[\w$.]*(?:Error|Exception|Throwable|Failure)$/.test(reportType)
      ? reportType
      : undefined;
  const full = declared ?? opening?.[1] ?? '';
  const type = full.lastIndexOf('.') < 0 ? full : full.slice(full.lastIndexOf('.') + 1);
  let rest = opening !== null ? rawMessage.slice(opening[0].length) : rawMessage;
  if (declared !== undefined && rest.startsWith(`${declared}:`)) rest = rest.slice(declared.length + 1);
  const firstLine = rest.trim().split('\n', 1)[0] ?? '';
  return { type, message: maskVarying(firstLine).slice(0, 240) };
}

/** clusterFailures as it was: one joined key per failure. */
function clustersAsBefore(failing: readonly FoldedTest[]) {
  const byKey = new Map<string, { id: string; count: number; members: FoldedTest[]; suites: string[] }>();
  for (const test of failing) {
    const signature = signatureOf(test);
    const key = `${signature.type}\u0000${signature.message}\u0000${signature.frame}`;
    let cluster = byKey.get(key);
    if (cluster === undefined) {
      cluster = { id: clusterId(key), count: 0, members: [], suites: [] };
      byKey.set(key, cluster);
    }
    cluster.count += 1;
    cluster.members.push(test);
    if (!cluster.suites.includes(test.suite)) cluster.suites.push(test.suite);
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count);
}

const TYPES = [
  undefined,
  '',
  'failure',
  'panic',
  'AssertionError',
  'java.lang.IllegalStateException',
  'org.opentest4j.AssertionFailedError',
  'Err',
  '5:Error',
];
const OPENINGS = [
  '',
  'AssertionError: ',
  'java.lang.IllegalStateException: ',
  'Error:',
  'panic: ',
  '5:Error',
];
const BODIES = [
  'expected: <{n}> but was: <{m}>',
  'Connection to db-{n}.internal refused',
  'user 3f2a{n}c9-0000-4000-8000-0000000{m} not found at /srv/app/{n}/x.txt',
  'timeout after {n}ms at 2026-12-0{d}T10:{m}:00Z',
  '  boom {n}\nsecond line {m}',
  'hash deadbeef{n}{m} at 0x{m}f',
  '',
  '   ',
];

function generatedFailing(count: number, seed: number): FoldedTest[] {
  const random = seededRandom(seed);
  const pick = <T>(all: readonly T[]): T => all[Math.floor(random() * all.length)] as T;
  const failing: FoldedTest[] = [];
  for (let index = 0; index < count; index += 1) {
    const body = pick(BODIES)
      .replaceAll('{n}', String(Math.floor(random() * 3_000)))
      .replaceAll('{m}', String(Math.floor(random() * 90)))
      .replaceAll('{d}', String(1 + Math.floor(random() * 9)));
    const type = pick(TYPES);
    const frame = `at com.acme.Service${Math.floor(random() * 5)}.run(Service.java:${Math.floor(random() * 4)})`;
    failing.push({
      suite: `suite${Math.floor(random() * 7)}`,
      classname: 'C',
      name: `t${index}`,
      status: 'failed',
      failures: [
        {
          kind: 'failure',
          message: `${pick(OPENINGS)}${body}`,
          ...(type === undefined ? {} : { type }),
          stack: `${body}\n\t${frame}\n\tat org.junit.Assert.fail(Assert.java:1)`,
        },
      ],
      attempts: 1,
      failedAttempts: 1,
    });
  }
  return failing;
}

describe('failure signatures', () => {
  it('give every failure the type and message worked out afresh, across the memo being emptied', () => {
    // More distinct messages than the memo holds, asked in order and then again in reverse.
    const failing = generatedFailing(12_000, 25);
    const distinct = new Set(failing.map((test) => `${test.failures[0]?.type}|${test.failures[0]?.message}`));
    expect(distinct.size).toBeGreaterThan(4_096);
    for (const test of [...failing, ...[...failing].reverse()]) {
      const failure = test.failures[0];
      const { type, message } = signatureOf(test);
      expect({ type, message }, test.name).toEqual(partsAsBefore(failure?.type, failure?.message ?? ''));
    }
  });

  it('do not take one report type and message for another that reads alike when joined', () => {
    const asked: [string | undefined, string][] = [
      ['Error', 'boom'],
      [undefined, '5:Errorboom'],
      ['Err', 'orboom'],
      ['5:Error', 'boom'],
      ['', '5:Errorboom'],
      [undefined, '-5:Errorboom'],
    ];
    const tests = asked.map(([type, message], index) =>
      generatedFailing(1, index).map((test) => ({
        ...test,
        failures: [{ kind: 'failure' as const, message, ...(type === undefined ? {} : { type }) }],
      })),
    );
    for (const [index, [type, message]] of asked.entries()) {
      const { type: gotType, message: gotMessage } = signatureOf(tests[index]?.[0] as FoldedTest);
      expect({ type: gotType, message: gotMessage }, `${type}|${message}`).toEqual(
        partsAsBefore(type, message),
      );
    }
    expect(signatureOf(tests[0]?.[0] as FoldedTest).type).toBe('Error');
    expect(signatureOf(tests[1]?.[0] as FoldedTest).type).toBe('');
  });

  it('cluster as joining the parts into one key did', () => {
    const failing = generatedFailing(6_000, 7);
    const clusters = clusterFailures(failing);
    const before = clustersAsBefore(failing);
    expect(clusters.length).toBeGreaterThan(50);
    expect(
      clusters.map((cluster) => ({
        id: cluster.id,
        count: cluster.count,
        members: cluster.members,
        suites: cluster.suites,
      })),
    ).toEqual(before);
    for (const cluster of clusters) expect(cluster.representative).toBe(cluster.members[0]);
  });
});
