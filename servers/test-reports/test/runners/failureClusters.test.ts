// Failure clusters on real runners' output with planted causes: one bug failing tests across suites is one
// cluster, two bugs are two, and the same bug reads as the same signature (and cluster id) in Jest's JSON,
// jest-junit, Vitest's JSON and Vitest's JUnit of the same code; pytest likewise in Python. The oracle is
// the plant: which tests call which broken function (and that every runner failed exactly those).
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  available,
  failuresOf,
  nodeBin,
  run,
  type Server,
  scratch,
  startServer,
  writeProject,
} from './runnerHarness.js';

// Bug 1: priceOf reads `item.price.amount` of items without a price (a TypeError thrown in price.js).
// Bug 2: taxOf refuses rates above 0.2 with a message naming the rate and the order (numbers that vary).
const JS: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'clusters-demo', private: true }),
  'vitest.config.cjs': 'module.exports = { test: { globals: true, include: ["**/*.test.js"] } };\n',
  'price.js': 'exports.priceOf = (item) => item.price.amount * 100;\n',
  'tax.js': `exports.taxOf = (order, rate) => {
  if (rate > 0.2) throw new RangeError(\`rate \${rate} out of range for order \${order.id}\`);
  return order.total * rate;
};
`,
  'cart.test.js': `const { priceOf } = require('./price');
test('prices a book', () => { expect(priceOf({ name: 'book' })).toBe(1200); });
test('prices a pen', () => { expect(priceOf({ name: 'pen' })).toBe(150); });
test('prices a priced item', () => { expect(priceOf({ price: { amount: 2 } })).toBe(200); });
`,
  'checkout.test.js': `const { priceOf } = require('./price');
const { taxOf } = require('./tax');
test('checks out a mug', () => { expect(priceOf({ sku: 'mug-1' })).toBeGreaterThan(0); });
test('taxes order 1001', () => { expect(taxOf({ id: 1001, total: 10 }, 0.25)).toBe(2.5); });
test('taxes order 1002', () => { expect(taxOf({ id: 1002, total: 10 }, 0.3)).toBe(3); });
`,
  'invoice.test.js': `const { priceOf } = require('./price');
const { taxOf } = require('./tax');
test('invoices a lamp', () => { expect(priceOf({ sku: 'lamp-7' })).toBe(4000); });
test('taxes order 2001', () => { expect(taxOf({ id: 2001, total: 40 }, 0.21)).toBe(8.4); });
test('taxes within range', () => { expect(taxOf({ id: 2002, total: 10 }, 0.1)).toBe(1); });
`,
};
const PRICE_BUG = ['prices a book', 'prices a pen', 'checks out a mug', 'invoices a lamp'];
const TAX_BUG = ['taxes order 1001', 'taxes order 1002', 'taxes order 2001'];

const PY: Record<string, string> = {
  'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "-p no:cacheprovider"\n',
  'shop.py': 'def price_of(item):\n    return item["price"]["amount"] * 100\n',
  'test_cart.py':
    'from shop import price_of\n\n\ndef test_book():\n    assert price_of({"name": "book"}) == 1\n\n\ndef test_pen():\n    assert price_of({"name": "pen"}) == 2\n',
  'test_invoice.py':
    'from shop import price_of\n\n\ndef test_lamp():\n    assert price_of({"sku": "lamp-7"}) == 3\n\n\ndef test_unrelated():\n    assert 1 + 1 == 3, "arithmetic"\n',
};

const PYTEST = '/usr/bin/pytest-3';
const pytest = available(PYTEST);

let root: string;
let server: Server;

beforeAll(async () => {
  root = await scratch('clusters');
  await writeProject(path.join(root, 'js'), JS);
  const js = path.join(root, 'js');
  await mkdir(path.join(js, 'jest-json'));
  run(
    path.join(nodeBin, 'jest'),
    [
      '--ci',
      '--json',
      '--outputFile=jest-json/results.json',
      '--reporters=default',
      '--reporters=jest-junit',
    ],
    js,
    {
      JEST_JUNIT_OUTPUT_DIR: 'jest-junit',
      // Without it jest-junit names every suite "undefined".
      JEST_JUNIT_SUITE_NAME: '{filepath}',
    },
  );
  run(
    path.join(nodeBin, 'vitest'),
    [
      'run',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=vitest-json/results.json',
      '--reporter=junit',
      '--outputFile.junit=vitest-junit/junit.xml',
    ],
    js,
  );
  if (pytest) {
    await writeProject(path.join(root, 'py'), PY);
    run(PYTEST, ['--junitxml=reports/junit.xml', '--tb=short'], path.join(root, 'py'));
  }
  server = await startServer(root);
}, 180_000);
afterAll(async () => {
  await server?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

interface Cluster {
  id: string;
  count: number;
  signature: { type: string; message: string; frame: string };
  member_ids: string[];
  suites: string[];
  differences: { distinct_messages: number; examples: string[] };
}

async function clustersOf(reports: string): Promise<Cluster[]> {
  const answer = await server.call('failure_clusters', { path: reports });
  expect(answer.truncated).toBe(false);
  return answer.clusters as Cluster[];
}

const FORMATS = ['js/jest-json', 'js/jest-junit', 'js/vitest-json', 'js/vitest-junit'];

describe('failure clusters on real runners, with planted causes', () => {
  it.each(FORMATS)(
    'reads one cluster per planted bug in %s, each naming its members and suites',
    async (reports) => {
      const failures = await failuresOf(server, reports);
      // The runner failed exactly the tests the plant breaks.
      // (jest-junit names a test `{classname} {title}`: a top-level test starts with a space.)
      expect(failures.map((failure) => failure.name.trim()).sort()).toEqual(
        [...PRICE_BUG, ...TAX_BUG].sort(),
      );
      const clusters = await clustersOf(reports);
      expect(clusters.map((cluster) => cluster.count)).toEqual([PRICE_BUG.length, TAX_BUG.length]);
      const [price, tax] = clusters as [Cluster, Cluster];
      const idsOf = (names: string[]) =>
        failures
          .filter((failure) => names.includes(failure.name.trim()))
          .map((failure) => failure.id)
          .sort();
      expect([...price.member_ids].sort()).toEqual(idsOf(PRICE_BUG));
      expect([...tax.member_ids].sort()).toEqual(idsOf(TAX_BUG));
      expect(price.signature).toMatchObject({ type: 'TypeError', frame: 'price.js:1' });
      expect(tax.signature).toEqual({
        type: 'RangeError',
        message: 'rate <n> out of range for order <n>',
        frame: 'tax.js:2',
      });
      expect(price.suites.map((suite) => path.basename(suite)).sort()).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/cart/),
          expect.stringMatching(/checkout/),
          expect.stringMatching(/invoice/),
        ]),
      );
      // How the members differ: the masked numbers.
      expect(tax.differences.distinct_messages).toBe(3);
      expect(tax.differences.examples.join('\n')).toMatch(/rate 0\.25 out of range for order 1001/);
    },
  );

  it('gives the same bug the same cluster id in every runner and format', async () => {
    const ids = await Promise.all(
      FORMATS.map(async (reports) => (await clustersOf(reports)).map((c) => c.id)),
    );
    for (const other of ids.slice(1)) expect(other).toEqual(ids[0]);
  });

  it('groups list_failures by cluster on request', async () => {
    const answer = await server.call('list_failures', { path: 'js/jest-json', group: true, limit: 200 });
    const clusters = answer.clusters as { id: string; count: number }[];
    const failures = answer.failures as { cluster_id: string; name: string }[];
    expect(answer.cluster_count).toBe(2);
    expect(failures.map((failure) => failure.cluster_id)).toEqual([
      ...Array(PRICE_BUG.length).fill(clusters[0]?.id),
      ...Array(TAX_BUG.length).fill(clusters[1]?.id),
    ]);
  });

  it.skipIf(!pytest)(
    'reads the Python bug as one cluster and the unrelated assertion as another',
    async () => {
      const clusters = await clustersOf('py/reports');
      expect(
        clusters.map((cluster) => [cluster.count, cluster.signature.type, cluster.signature.frame]),
      ).toEqual([
        [3, 'KeyError', 'shop.py:2'],
        [1, 'AssertionError', 'test_invoice.py:9'],
      ]);
    },
  );
});
