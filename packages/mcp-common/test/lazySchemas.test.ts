// A built server runs bundled.cjs, in which every schema of the SDK's types.js is built on first use behind
// a Proxy (buildServer.mjs, lazySdkSchemas); installed.mjs is the same server code with the SDK imported as
// published, every schema built eagerly. Both must answer every message alike, byte for byte: the same raw
// lines go to each, one at a time, and the transcripts are compared. Task ids and times are the only values
// that may differ between two runs, and are normalized.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('./filesServer/dist/', import.meta.url));

/** One message to send: a raw line, and whether the server owes it an answer. */
interface Step {
  /** The line, or how to write it from the id of the last task the server created. */
  line: string | ((taskId: string) => string);
  answered: boolean;
}

const request = (id: number | string, method: string, params?: unknown): Step => ({
  line: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }),
  answered: true,
});
const notification = (method: string, params?: unknown): Step => ({
  line: JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) }),
  answered: false,
});
const raw = (line: string, answered: boolean): Step => ({ line, answered });

const initialize = (protocolVersion: string): Step[] => [
  request(0, 'initialize', {
    protocolVersion,
    capabilities: {},
    clientInfo: { name: 'lazy-schemas-test', version: '0' },
  }),
  notification('notifications/initialized'),
];

/** Every method rpcScreening.ts checks, with params its schema refuses (each must get -32602). */
const BAD_PARAMS: Array<[string, unknown]> = [
  ['initialize', {}],
  ['initialize', { protocolVersion: 5, capabilities: {}, clientInfo: { name: 'x', version: '0' } }],
  ['initialize', { protocolVersion: '2025-06-18', capabilities: [], clientInfo: {} }],
  ['ping', { _meta: 'x' }],
  ['tools/list', { cursor: 5 }],
  ['tools/call', {}],
  ['tools/call', { name: 5 }],
  ['tools/call', { name: 'read_text', arguments: 'x' }],
  ['tools/call', { name: 'read_text', arguments: {}, task: { ttl: 'long' } }],
  ['resources/list', { cursor: 5 }],
  ['resources/templates/list', { cursor: {} }],
  ['resources/read', {}],
  ['resources/read', { uri: 5 }],
  ['logging/setLevel', {}],
  ['logging/setLevel', { level: 'loud' }],
  ['notifications/cancelled', { requestId: {} }],
  ['prompts/list', { cursor: 5 }],
  ['prompts/get', {}],
  ['prompts/get', { name: 5 }],
  ['prompts/get', { name: 'read-a-file', arguments: { path: 5 } }],
  ['completion/complete', {}],
  ['completion/complete', { ref: { type: 'ref/bogus' }, argument: { name: 'path', value: '' } }],
  ['completion/complete', { ref: { type: 'ref/prompt', name: 'read-a-file' }, argument: { name: 'path' } }],
  ['skills/list', { cursor: 5 }],
  ['skills/get', {}],
  ['tasks/get', {}],
  ['tasks/result', { taskId: 5 }],
  ['tasks/cancel', {}],
  ['tasks/list', { cursor: 5 }],
];

/** A request naming the last task created. */
const taskRequest = (id: number, method: string): Step => ({
  line: (taskId) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { taskId } }),
  answered: true,
});

/** What a 2025 session asks, good and bad, after its initialize. */
function legacyConversation(): Step[] {
  let id = 1;
  const next = () => id++;
  const prompt = { type: 'ref/prompt', name: 'read-a-file' };
  return [
    request(next(), 'ping'),
    request(next(), 'ping', {}),
    request(next(), 'tools/list'),
    request(next(), 'tools/list', { cursor: 'nowhere' }),
    request(next(), 'prompts/list'),
    request(next(), 'prompts/get', { name: 'read-a-file', arguments: { path: 'a.txt', tone: 'detailed' } }),
    request(next(), 'prompts/get', { name: 'read-a-file', arguments: {} }),
    request(next(), 'prompts/get', { name: 'no-such-prompt' }),
    request(next(), 'completion/complete', { ref: prompt, argument: { name: 'path', value: '' } }),
    request(next(), 'completion/complete', { ref: prompt, argument: { name: 'tone', value: 'b' } }),
    request(next(), 'completion/complete', { ref: prompt, argument: { name: 'nope', value: '' } }),
    request(next(), 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'file:///x' },
      argument: { name: 'path', value: '' },
    }),
    request(next(), 'resources/list'),
    request(next(), 'resources/templates/list'),
    request(next(), 'resources/read', { uri: 'groundwork://nowhere' }),
    request(next(), 'skills/list'),
    request(next(), 'skills/get', { uri: 'skill://nowhere' }),
    request(next(), 'logging/setLevel', { level: 'debug' }),
    request(next(), 'tools/call', { name: 'read_text', arguments: { path: 'a.txt' } }),
    request(next(), 'tools/call', { name: 'list_entries', arguments: { path: '.' } }),
    request(next(), 'tools/call', { name: 'read_text', arguments: { path: '../outside.txt' } }),
    request(next(), 'tools/call', { name: 'read_text', arguments: {} }),
    request(next(), 'tools/call', { name: 'read_text', arguments: { path: 5, extra: true } }),
    request(next(), 'tools/call', { name: 'no_such_tool', arguments: {} }),
    request(next(), 'tools/call', { name: 'read_text', arguments: { path: 'a.txt' }, task: { ttl: 1000 } }),
    request(next(), 'tasks/list'),
    // A task run to its end: its result waited for, then its state, the list, a cancel too late.
    request(next(), 'tools/call', { name: 'list_entries', arguments: { path: '.' }, task: { ttl: 60_000 } }),
    taskRequest(next(), 'tasks/result'),
    taskRequest(next(), 'tasks/get'),
    request(next(), 'tasks/list'),
    taskRequest(next(), 'tasks/cancel'),
    request(next(), 'tasks/get', { taskId: 'nowhere' }),
    request(next(), 'tasks/result', { taskId: 'nowhere' }),
    request(next(), 'tasks/cancel', { taskId: 'nowhere' }),
    request(next(), 'no/such/method'),
    request(next(), 'resources/subscribe', { uri: 'groundwork://nowhere' }),
    notification('notifications/cancelled', { requestId: 12345 }),
    notification('notifications/cancelled', { requestId: {} }),
    notification('notifications/no-such-notification'),
    request(next(), 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'again', version: '0' },
    }),
    ...BAD_PARAMS.map(([method, params]) => request(next(), method, params)),
    raw('{not json', true),
    raw('[]', true),
    raw('{"jsonrpc":"1.0","id":1,"method":"ping"}', true),
    raw('{"jsonrpc":"2.0","id":1.5,"method":"ping"}', true),
    raw('{"jsonrpc":"2.0","id":"p","method":"ping","params":[]}', true),
    raw('{"jsonrpc":"2.0","id":"r","result":{}}', false),
    request(next(), 'logging/setLevel', { level: 'error' }),
  ];
}

/** The same, as 2026-07-28 requests (each carries its revision in `_meta`, no initialize). */
function modernConversation(): Step[] {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'lazy-schemas-test', version: '0' },
  };
  const withMeta = (params: unknown = {}) => ({ ...(params as object), _meta: meta });
  const steps: Step[] = [request('discover', 'server/discover', withMeta())];
  let id = 1;
  for (const step of legacyConversation()) {
    if (!step.answered) continue;
    if (typeof step.line !== 'string') continue; // 2026-07-28 tasks are the extension's, not these
    let message: { id?: unknown; method?: string; params?: unknown };
    try {
      message = JSON.parse(step.line);
    } catch {
      continue;
    }
    if (typeof message !== 'object' || message === null || typeof message.method !== 'string') continue;
    const params = message.params ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params)) continue;
    steps.push(request(`m${id++}`, message.method, withMeta(params)));
  }
  steps.push(request('old', 'tools/list', withMeta({ _meta: undefined })));
  steps.push(
    request('other-version', 'tools/list', {
      _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
    }),
  );
  return steps;
}

class Session {
  private readonly child: ChildProcess;
  private readonly lines: string[] = [];
  private waiting: (() => void) | undefined;
  private exited = false;
  private taskId = 'no task yet';
  private readonly taskIds: string[] = [];
  /** Notifications the server sent of itself (a task's status…), whose place among the answers is not fixed. */
  private readonly notifications: string[] = [];
  stderr = '';

  constructor(args: string[]) {
    this.child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    createInterface({ input: this.child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      this.lines.push(line);
      this.waiting?.();
    });
    this.child.on('exit', () => {
      this.exited = true;
      this.waiting?.();
    });
  }

  /**
   * Sends each step and waits for its answer (or, for one owed none, a ping's): every answer in order, then
   * the notifications the server sent of itself, sorted.
   */
  async converse(steps: readonly Step[]): Promise<string[]> {
    const transcript: string[] = [];
    for (const [index, step] of steps.entries()) {
      const line = typeof step.line === 'string' ? step.line : step.line(this.taskId);
      transcript.push(`> ${line}`);
      this.child.stdin?.write(`${line}\n`);
      if (!step.answered) this.child.stdin?.write(`${request(`sync-${index}`, 'ping').line}\n`);
      const received = await this.until(step.answered ? undefined : `sync-${index}`);
      transcript.push(...received.map((line) => `< ${line}`));
    }
    const lines = [...transcript, ...this.notifications.sort().map((line) => `<< ${line}`)];
    // Task ids are random: each is named by the order it was created in.
    return lines.map((line) =>
      this.taskIds.reduce((named, taskId, index) => named.replaceAll(taskId, `<task ${index}>`), line),
    );
  }

  close(): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.on('exit', () => resolve());
      this.child.stdin?.end();
    });
  }

  /** Lines until an answer (to request `id`, or to anything when id is undefined). */
  private async until(id: string | undefined): Promise<string[]> {
    const received: string[] = [];
    for (;;) {
      const line = this.lines.shift();
      if (line === undefined) {
        if (this.exited) throw new Error(`the server exited; received so far: ${received.join('\n')}`);
        await new Promise<void>((resolve) => {
          this.waiting = resolve;
        });
        this.waiting = undefined;
        continue;
      }
      const message = JSON.parse(line);
      const answer = 'result' in message || 'error' in message;
      if (!answer && !('id' in message)) {
        this.notifications.push(line);
        continue;
      }
      const created = message.result?.task?.taskId;
      if (typeof created === 'string') {
        this.taskId = created;
        this.taskIds.push(created);
      }
      if (answer && id !== undefined && message.id === id) return received;
      received.push(line);
      if (answer && id === undefined) return received;
    }
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g;
const normalized = (lines: string[]) =>
  lines.map((line) => line.replace(UUID, '<uuid>').replace(TIME, '<time>'));

let base: string;
let allowed: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'lazy-schemas-')));
  allowed = path.join(base, 'tree');
  await mkdir(path.join(allowed, 'sub'), { recursive: true });
  await writeFile(path.join(allowed, 'a.txt'), 'alpha\n');
  await writeFile(path.join(allowed, 'b.txt'), 'beta\n');
  await writeFile(path.join(base, 'outside.txt'), 'secret');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The transcript of `steps` with the bundled bin and with installed.mjs. */
async function bothTranscripts(steps: readonly Step[]): Promise<[string[], string[]]> {
  const transcripts: string[][] = [];
  for (const entry of ['bin.js', 'installed.mjs']) {
    const session = new Session([path.join(dist, entry), '--allowed-dir', allowed]);
    try {
      transcripts.push(normalized(await session.converse(steps)));
    } finally {
      await session.close();
    }
    // The bin ran the bundle, not installed.mjs (serverLoader.mjs says so when it falls back).
    expect(session.stderr).not.toContain('differs from the one bundled');
  }
  return transcripts as [string[], string[]];
}

describe('the lazy SDK schemas of bundled.cjs', () => {
  it('are in the bundle the bin runs', async () => {
    // The helper (minified) and the schemas built through it.
    const bundled = await readFile(path.join(dist, 'bundled.cjs'), 'utf8');
    const lazy = /function (\w+)\(\w+\)\{[^{}]*new Proxy\(\{\},\{get:/.exec(bundled)?.[1];
    expect(lazy).toBeDefined();
    expect(bundled.split(`${lazy}(()=>`).length - 1).toBeGreaterThan(100);
    expect(await readFile(path.join(dist, 'installed.mjs'), 'utf8')).not.toContain('new Proxy({},{get:');
  });

  for (const version of ['2024-11-05', '2025-06-18', '2025-11-25']) {
    it(`answer a ${version} session as the eager schemas do`, async () => {
      const [bundled, installed] = await bothTranscripts([...initialize(version), ...legacyConversation()]);
      expect(bundled.filter((line) => line.startsWith('< ')).length).toBeGreaterThan(BAD_PARAMS.length);
      expect(bundled).toEqual(installed);
    });
  }

  it('answer 2026-07-28 requests as the eager schemas do', async () => {
    const [bundled, installed] = await bothTranscripts(modernConversation());
    expect(bundled).toEqual(installed);
  });

  it('answer messages before initialize as the eager schemas do', async () => {
    const [bundled, installed] = await bothTranscripts(legacyConversation());
    expect(bundled).toEqual(installed);
  });
});
