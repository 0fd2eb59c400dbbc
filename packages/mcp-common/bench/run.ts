// `pnpm bench`: mcp-common side by side with what users run today, in one run on one machine.
// Prints each figure, its ratio to the baseline and whether the target of issue 2 is met.
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { builtinsOfStdioStart, median, timeStart } from './coldStart.js';
import { McpHttpClient, MODERN, measureThroughput } from './mcpHttpClient.js';
import {
  buildAll,
  dataDir,
  freePort,
  type RunningServer,
  resolvePackageBin,
  startServer,
} from './processes.js';

const env = process.env;
const COLD_RUNS = Number(env.BENCH_COLD_RUNS ?? 15);
const CONCURRENCY = 16;
const WARMUP_MS = Number(env.BENCH_WARMUP_MS ?? 1500);
const SLICES = Number(env.BENCH_SLICES ?? 10);
const SLICE_MS = Number(env.BENCH_SLICE_MS ?? 1000);
const SESSIONS = Number(env.BENCH_SESSIONS ?? 2000);
const CHURN_ROUNDS = Number(env.BENCH_CHURN_ROUNDS ?? 3);

interface Row {
  what: string;
  ours: number;
  baseline: number;
  unit: string;
  /** The target on ours ÷ baseline (or, with `absolute`, on ours alone). */
  target: { atMost?: number; atLeast?: number; absolute?: boolean };
  note?: string;
}
const rows: Row[] = [];

const built = await buildAll();
const allowedDir = path.join(dataDir, 'allowed');
await mkdir(allowedDir, { recursive: true });
log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}; load average ${os.loadavg()[0]?.toFixed(2)}`,
);

// BENCH_ONLY=cold,streamable,stateless,memory runs some of the sections (while optimizing one of them).
const only = env.BENCH_ONLY?.split(',');
const sections = {
  cold: coldStart,
  streamable: streamableHttp,
  stateless: statelessHttp,
  revisions: bothRevisions,
  memory: sessionMemory,
};
for (const [name, section] of Object.entries(sections))
  if (only === undefined || only.includes(name)) await section();
log(
  `load average (1, 5, 15 min) at the end: ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(', ')}`,
);
printTable();

async function coldStart(): Promise<void> {
  const contenders = {
    ours: [built.echoServer, '--allowed-dir', allowedDir],
    filesystem: [resolvePackageBin('@modelcontextprotocol/server-filesystem', 'dist/index.js'), allowedDir],
  };
  const times = { ours: [] as number[], filesystem: [] as number[], node: [] as number[] };
  // Interleaved, so a busy moment on the machine hits every contender alike.
  for (let run = 0; run < COLD_RUNS + 1; run++) {
    const ours = await timeStart(contenders.ours, true);
    const filesystem = await timeStart(contenders.filesystem, true);
    const node = await timeStart(['-e', ''], false);
    if (run === 0) continue; // the first run warms the file cache
    times.ours.push(ours);
    times.filesystem.push(filesystem);
    times.node.push(node);
  }
  const [ours, filesystem, node] = [median(times.ours), median(times.filesystem), median(times.node)];
  log(
    `cold start medians: mcp-common ${ours.toFixed(1)} ms, server-filesystem ${filesystem.toFixed(1)} ms, node -e '' ${node.toFixed(1)} ms`,
  );
  const builtins = await builtinsOfStdioStart(built.builtinsProbe, contenders.ours);
  const httpStack = builtins.filter((name) => ['http', 'https', '_http_server', 'crypto'].includes(name));
  log(`built-ins a stdio start of mcp-common loads from the HTTP stack: ${httpStack.join(', ') || 'none'}`);
  rows.push({
    what: 'stdio cold start, spawn → initialize result (median)',
    ours,
    baseline: filesystem,
    unit: 'ms',
    target: { atMost: 0.5 },
    note: `vs @modelcontextprotocol/server-filesystem; bare node -e '' = ${node.toFixed(1)} ms (ours ${(ours / node).toFixed(2)}×)`,
  });
}

interface Contender {
  start(): Promise<RunningServer>;
  call(client: McpHttpClient, session: string | undefined): Promise<void>;
}

/**
 * Both servers run at once and are measured in alternating one-second slices, so a busy moment on a
 * shared machine weighs on both alike; the figure is the mean over the slices.
 */
async function compareThroughput(
  what: string,
  baselineName: string,
  ours: Contender,
  baseline: Contender,
  revision: '2025-06-18' | typeof MODERN = '2025-06-18',
) {
  const running = await Promise.all(
    [ours, baseline].map(async (contender) => {
      const server = await contender.start();
      const client = new McpHttpClient(server.url, CONCURRENCY, revision);
      const session = await client.initialize();
      const run = (ms: number) => measureThroughput(() => contender.call(client, session), CONCURRENCY, ms);
      return { server, client, run, rates: [] as number[] };
    }),
  );
  try {
    for (const side of running) await side.run(WARMUP_MS);
    for (let slice = 0; slice < SLICES; slice++) {
      for (const side of running) side.rates.push(await side.run(SLICE_MS));
    }
  } finally {
    for (const side of running) {
      await side.client.close();
      await side.server.stop();
    }
  }
  const [mine, theirs] = running.map(
    (side) => side.rates.reduce((sum, rate) => sum + rate, 0) / side.rates.length,
  ) as [number, number];
  const range = (rates: number[]) => `${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}/s`;
  log(
    `${what}: mcp-common ${mine.toFixed(0)}/s (slices ${range(running[0]?.rates ?? [])}), ${baselineName} ${theirs.toFixed(0)}/s (slices ${range(running[1]?.rates ?? [])})`,
  );
  rows.push({
    what: `${what}, 16 concurrent echo calls (mean of ${SLICES} alternating ${SLICE_MS / 1000} s slices)`,
    ours: mine,
    baseline: theirs,
    unit: 'req/s',
    target: { atLeast: 2 },
    note: `vs ${baselineName}`,
  });
}

async function streamableHttp(): Promise<void> {
  const everything = resolvePackageBin('@modelcontextprotocol/server-everything', 'dist/index.js');
  const port = await freePort();
  await compareThroughput(
    'streamable HTTP, one session',
    "server-everything's echo (streamableHttp)",
    {
      start: () =>
        startServer(
          [built.echoServer, '--transport', 'streamable-http', '--port', '0'],
          /serving streamable-http at (\S+)/,
        ),
      call: (client, session) => client.callTool(session, 'echo', { text: 'hello' }),
    },
    {
      start: () =>
        startServer([everything, 'streamableHttp'], /listening on port/, {
          env: { PORT: String(port) },
          url: `http://127.0.0.1:${port}/mcp`,
        }),
      call: (client, session) => client.callTool(session, 'echo', { message: 'hello' }),
    },
  );
}

async function statelessHttp(): Promise<void> {
  await compareThroughput(
    'stateless HTTP',
    'the SDK documented stateless pattern (new server per request)',
    {
      start: () =>
        startServer(
          [built.echoServer, '--transport', 'stateless-http', '--port', '0'],
          /serving stateless-http at (\S+)/,
        ),
      call: (client) => client.callTool(undefined, 'echo', { text: 'hello' }),
    },
    {
      start: () => startServer([built.sdkStatelessServer], /listening (\S+)/),
      call: (client) => client.callTool(undefined, 'echo', { text: 'hello' }),
    },
  );
}

/**
 * Issue 15: the same trivial call against the official SDK v2 handler (`createMcpHandler`), once as
 * MCP 2026-07-28 requests and once as 2025 stateless requests (both servers answer both).
 */
async function bothRevisions(): Promise<void> {
  const ours: Contender = {
    start: () =>
      startServer(
        [built.echoServer, '--transport', 'stateless-http', '--port', '0'],
        /serving stateless-http at (\S+)/,
      ),
    call: (client) => client.callTool(undefined, 'echo', { text: 'hello' }),
  };
  const v2: Contender = {
    start: () => startServer([built.sdkV2Server], /listening (\S+)/),
    call: (client) => client.callTool(undefined, 'echo', { text: 'hello' }),
  };
  await compareThroughput('MCP 2026-07-28', 'SDK v2 createMcpHandler', ours, v2, MODERN);
  await compareThroughput('2025-06-18 stateless', 'SDK v2 createMcpHandler (2025 stateless)', ours, v2);
  await modernMemory();
}

/** Heap growth per request over MODERN_REQUESTS 2026-07-28 calls: nothing may be kept per request. */
async function modernMemory(): Promise<void> {
  const requests = Number(env.BENCH_MODERN_REQUESTS ?? 100_000);
  const server = await startServer(
    [
      '--expose-gc',
      '--import',
      built.memoryProbe,
      built.echoServer,
      '--transport',
      'stateless-http',
      '--port',
      '0',
    ],
    /serving stateless-http at (\S+)/,
    { ipc: true },
  );
  const client = new McpHttpClient(server.url, CONCURRENCY, MODERN);
  const calls = async (count: number) => {
    let left = count;
    const worker = async () => {
      while (left-- > 0) await client.callTool(undefined, 'echo', { text: 'hello' });
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };
  try {
    await calls(5_000); // warm every code path first
    const before = await measure(server);
    await calls(requests);
    const after = await measure(server);
    const perRequest = (after.heapUsed - before.heapUsed) / requests;
    log(
      `MCP 2026-07-28 memory: heap ${(before.heapUsed / 2 ** 20).toFixed(1)} MiB before, ${(after.heapUsed / 2 ** 20).toFixed(1)} MiB after ${requests} requests`,
    );
    rows.push({
      what: `heap growth per MCP 2026-07-28 request over ${requests} stateless requests (after GC)`,
      ours: Math.max(0, perRequest),
      baseline: 0,
      unit: 'B',
      target: { atMost: 1, absolute: true },
      note: 'nothing is kept per request; a leak of a request would show hundreds of bytes',
    });
  } finally {
    await client.close();
    await server.stop();
  }
}

interface Memory {
  heapUsed: number;
  rss: number;
}

function measure(server: RunningServer): Promise<Memory> {
  return new Promise((resolve) => {
    server.child.once('message', (message) => resolve(message as Memory));
    server.child.send('measure');
  });
}

async function openSessions(client: McpHttpClient, count: number): Promise<string[]> {
  const ids: string[] = [];
  const worker = async () => {
    while (ids.length < count) {
      ids.push('');
      const id = await client.initialize();
      if (id === undefined) throw new Error('initialize answered without a session id');
      ids[ids.indexOf('')] = id;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return ids;
}

async function deleteSessions(client: McpHttpClient, ids: readonly string[]): Promise<void> {
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.pop(); id !== undefined; id = queue.pop()) await client.deleteSession(id);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** Heap per idle session, and the heap left after churn compared with before it. */
async function sessionMemoryOf(args: readonly string[], ready: RegExp) {
  const server = await startServer(['--expose-gc', '--import', built.memoryProbe, ...args], ready, {
    ipc: true,
  });
  const client = new McpHttpClient(server.url, CONCURRENCY);
  try {
    await deleteSessions(client, await openSessions(client, 200)); // warm every code path first
    const before = await measure(server);
    const ids = await openSessions(client, SESSIONS);
    const open = await measure(server);
    await deleteSessions(client, ids);
    const afterDelete = await measure(server);
    for (let round = 0; round < CHURN_ROUNDS; round++)
      await deleteSessions(client, await openSessions(client, SESSIONS));
    const afterChurn = await measure(server);
    return {
      heapPerSession: (open.heapUsed - before.heapUsed) / SESSIONS,
      rssPerSession: (open.rss - before.rss) / SESSIONS,
      heapAfterDelete: afterDelete.heapUsed - before.heapUsed,
      churnGrowth: afterChurn.heapUsed - afterDelete.heapUsed,
    };
  } finally {
    await client.close();
    await server.stop();
  }
}

async function sessionMemory(): Promise<void> {
  const ours = await sessionMemoryOf(
    [built.echoServer, '--transport', 'streamable-http', '--port', '0'],
    /serving streamable-http at (\S+)/,
  );
  const sdk = await sessionMemoryOf([built.sdkSessionServer], /listening (\S+)/);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  for (const [name, m] of [
    ['mcp-common', ours],
    ['plain SDK', sdk],
  ] as const) {
    log(
      `${name}: ${kib(m.heapPerSession)} heap and ${kib(m.rssPerSession)} RSS per idle session; heap after deleting all ${kib(m.heapAfterDelete)} above the start; ` +
        `growth over ${CHURN_ROUNDS} × ${SESSIONS} open+DELETE: ${kib(m.churnGrowth)}`,
    );
  }
  rows.push({
    what: `heap per idle streamable-HTTP session (${SESSIONS} sessions, after GC)`,
    ours: ours.heapPerSession / 1024,
    baseline: sdk.heapPerSession / 1024,
    unit: 'KiB',
    target: { atMost: 50, absolute: true },
    note: `vs the plain SDK pattern (McpServer + StreamableHTTPServerTransport per session); RSS per session ${kib(ours.rssPerSession)} vs ${kib(sdk.rssPerSession)}`,
  });
  const churned = CHURN_ROUNDS * SESSIONS;
  rows.push({
    what: `heap growth per session after ${churned} sessions opened and DELETEd (churn)`,
    ours: Math.max(0, ours.churnGrowth / churned),
    baseline: Math.max(0, sdk.churnGrowth / churned),
    unit: 'B',
    // A leak of the session's state would show hundreds of bytes per session; noise is a few.
    target: { atMost: 16, absolute: true },
    note: 'no growth expected',
  });
}

function printTable(): void {
  const lines = [
    '',
    '| measure | mcp-common | baseline | ratio | target | met |',
    '|---|---:|---:|---:|---|---|',
  ];
  for (const row of rows) {
    const ratio = row.baseline === 0 ? Number.NaN : row.ours / row.baseline;
    const subject = row.target.absolute ? row.ours : ratio;
    const met =
      (row.target.atMost === undefined || subject <= row.target.atMost) &&
      (row.target.atLeast === undefined || subject >= row.target.atLeast);
    const target = row.target.absolute
      ? `≤ ${row.target.atMost} ${row.unit}`
      : row.target.atMost !== undefined
        ? `≤ ${row.target.atMost}×`
        : `≥ ${row.target.atLeast}×`;
    const figure = (value: number) => `${value.toFixed(1)} ${row.unit}`;
    lines.push(
      `| ${row.what} (${row.note ?? ''}) | ${figure(row.ours)} | ${figure(row.baseline)} | ${Number.isNaN(ratio) ? '—' : `${ratio.toFixed(2)}×`} | ${target} | ${met ? 'met' : 'NOT met'} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}
