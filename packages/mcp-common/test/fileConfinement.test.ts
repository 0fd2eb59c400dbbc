// Path confinement proven on the wire: a built server, real clients over stdio and streamable HTTP, and a
// hostile tree — links and FIFOs swapped by another process while calls run, devices, sockets, loops, a
// 120 KB path. Nothing here waits for time to pass: every step waits for an event (a line, a reply, an exit).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { lstat, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('./filesServer/dist/bin.js', import.meta.url));
const swapperScript = fileURLToPath(new URL('./swapper.mjs', import.meta.url));

let base: string;
let tree: string;
let outside: string;
let socketServer: Server;
const children: ChildProcess[] = [];

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'confinement-wire-')));
  tree = path.join(base, 'tree');
  outside = path.join(base, 'outside');
  await mkdir(path.join(tree, 'inside'), { recursive: true });
  await mkdir(path.join(tree, 'flipping'));
  await writeFile(path.join(tree, 'flipping', 'data.txt'), 'inside bytes');
  await mkdir(outside);
  await writeFile(path.join(tree, 'inside', 'data.txt'), 'inside bytes');
  await writeFile(path.join(outside, 'data.txt'), 'outside bytes');
  await writeFile(path.join(tree, 'regular.txt'), 'regular bytes');
  execFileSync('mkfifo', [path.join(tree, 'fifo')]);
  await symlink('../outside/data.txt', path.join(tree, 'link-out'));
  await symlink('../outside', path.join(tree, 'folder-out'));
  await symlink('../outside/missing.txt', path.join(tree, 'dangling-out'));
  await symlink('inside/missing.txt', path.join(tree, 'dangling-in'));
  await symlink('loop-b', path.join(tree, 'loop-a'));
  await symlink('loop-a', path.join(tree, 'loop-b'));
  socketServer = createServer();
  await new Promise<void>((resolve) => socketServer.listen(path.join(tree, 'sock'), resolve));
});

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await new Promise((resolve) => socketServer.close(resolve));
  await rm(base, { recursive: true, force: true });
});

type SwapJob =
  | { slot: string; hardLinks: [string, string] }
  | { slot: string; symlinks: [string, string] }
  | { slot: string; folderTo: string };

/** Starts `swapper.mjs` and resolves once it has swapped 100 rounds; `stop` resolves to how many in all. */
async function startSwapper(jobs: SwapJob[]): Promise<{ stop(): Promise<number> }> {
  const child = spawn(process.execPath, [swapperScript, JSON.stringify(jobs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  expect((await lines.next()).value).toBe('swapping');
  return {
    async stop() {
      child.kill('SIGTERM');
      const last = String((await lines.next()).value);
      return Number(/^swapped (\d+)$/.exec(last)?.[1]);
    },
  };
}

interface Running {
  client: Client;
  /** Ends the server the way its transport is ended (stdin closed; SIGTERM) and resolves to its exit code. */
  stop(): Promise<number | null>;
}

/** JSON-RPC over a child's stdin/stdout, the child ours, so the test sees the server exit by itself. */
class ChildStdioTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly child: ChildProcess) {}

  async start(): Promise<void> {
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) {
        this.onmessage?.(message);
      }
    });
    this.child.on('close', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child.stdin?.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.child.stdin?.end();
  }
}

// The swap tests send hundreds of calls at once: they all wait their turn (past the default queue of 32 a
// call is refused as "Server busy").
const MANY_CALLS = ['--max-queued-calls', '1000'];

async function startStdio(): Promise<Running> {
  const child = spawn(
    process.execPath,
    [bin, '--allowed-dir', tree, '--allowed-dir', '/dev', ...MANY_CALLS],
    {
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  children.push(child);
  const client = new Client({ name: 'confinement-wire-test', version: '0' });
  await client.connect(new ChildStdioTransport(child));
  return {
    client,
    async stop() {
      const exited = once(child, 'exit');
      await client.close(); // closes the server's stdin, nothing else
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

async function startHttp(): Promise<Running> {
  const child = spawn(
    process.execPath,
    [
      bin,
      '--transport',
      'streamable-http',
      '--port',
      '0',
      '--allowed-dir',
      tree,
      '--allowed-dir',
      '/dev',
      ...MANY_CALLS,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  let url: string | undefined;
  for await (const line of createInterface({ input: child.stderr as NodeJS.ReadableStream })) {
    url = / serving \S+ at (\S+)/.exec(line)?.[1];
    if (url !== undefined) break;
  }
  if (url === undefined) throw new Error('the server exited before serving');
  child.stderr?.resume();
  const client = new Client({ name: 'confinement-wire-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)) as Transport);
  return {
    client,
    async stop() {
      await client.close();
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
  return { isError: result.isError === true, text };
}

const starts: Array<[string, () => Promise<Running>]> = [
  ['stdio', startStdio],
  ['streamable-http', startHttp],
];

describe.each(starts)('path confinement over %s', (_transport, start) => {
  it('never yields outside bytes while another process swaps links and folders in and out of the roots', async () => {
    const server = await start();
    // A link that flips between a file inside and one outside; a folder that is briefly a link to outside.
    const swapper = await startSwapper([
      { slot: path.join(tree, 'swapped'), symlinks: ['inside/data.txt', '../outside/data.txt'] },
      { slot: path.join(tree, 'flipping'), folderTo: '../outside' },
    ]);
    const results = await Promise.all(
      Array.from({ length: 400 }, (_, index) =>
        call(server.client, 'read_text', { path: index % 2 === 0 ? 'swapped' : 'flipping/data.txt' }),
      ),
    );
    const rounds = await swapper.stop();
    for (const result of results) {
      if (!result.isError) expect(result.text).toBe('inside bytes');
      // Caught mid-swap: refused as outside, or (the folder moved aside) as missing — never read.
      else
        expect(result.text).toMatch(
          /^Path '(swapped|flipping\/data\.txt)' (is outside the directories|does not exist)/,
        );
    }
    // The swapper ran through the calls (it had swapped 100 rounds before the first call was sent).
    expect(rounds).toBeGreaterThan(100);
    expect(await server.stop()).toBe(0);
  });

  it('answers every call while a FIFO is swapped in and out, and still stops', async () => {
    const server = await start();
    const swapper = await startSwapper([
      { slot: path.join(tree, 'slot'), hardLinks: [path.join(tree, 'regular.txt'), path.join(tree, 'fifo')] },
    ]);
    const results = await Promise.all(
      Array.from({ length: 200 }, () => call(server.client, 'read_text', { path: 'slot' })),
    );
    expect(await swapper.stop()).toBeGreaterThan(100);
    for (const result of results) {
      if (result.isError)
        expect(result.text).toBe(
          "Path 'slot' is a FIFO (named pipe), not a regular file; pass the path of a regular file.",
        );
      else expect(result.text).toBe('regular bytes');
    }
    // The server still serves, and its transport's end (stdin closed; SIGTERM) stops it.
    expect((await call(server.client, 'read_text', { path: 'regular.txt' })).text).toBe('regular bytes');
    expect(await server.stop()).toBe(0);
  });

  it('refuses a FIFO, a socket, a device and a folder by kind', async () => {
    const server = await start();
    const expectations: Array<[string, string, string]> = [
      ['read_text', 'fifo', "Path 'fifo' is a FIFO (named pipe), not a regular file"],
      ['read_text', 'sock', "Path 'sock' is a socket, not a regular file"],
      ['read_text', '/dev/zero', "Path '/dev/zero' is a character device, not a regular file"],
      ['read_text', 'inside', "Path 'inside' is a directory, not a regular file"],
      ['list_entries', 'regular.txt', "Path 'regular.txt' is a regular file, not a directory"],
      ['write_text', 'fifo', "Path 'fifo' is a FIFO (named pipe), not a regular file"],
    ];
    for (const [tool, given, message] of expectations) {
      const result = await call(
        server.client,
        tool,
        tool === 'write_text' ? { path: given, text: 'x' } : { path: given },
      );
      expect(result.isError, given).toBe(true);
      expect(result.text).toContain(message);
    }
    expect(await server.stop()).toBe(0);
  });

  it('echoes a refused path exactly as sent, secrets masked, and never a server path', async () => {
    const server = await start();
    const sent = path.join(outside, 'users.csv');
    const refused = await call(server.client, 'read_text', { path: sent });
    expect(refused.text).toBe(
      `Path '${sent}' is outside the directories this server may read; pass a path inside them (relative paths resolve against the first one).`,
    );
    const link = await call(server.client, 'write_text', { path: 'link-out', text: 'evil' });
    expect(link.text).toMatch(/^Path 'link-out' is outside the directories/);
    expect(link.text).not.toContain(base);
    // A long one (over 400 characters) is echoed as its first 200 and `…`, not cut to its last segment.
    const long = path.join(outside, 'd'.repeat(200), 'e'.repeat(200));
    const longRefused = await call(server.client, 'read_text', { path: long });
    expect(longRefused.text).toMatch(new RegExp(`^Path '${long.slice(0, 200)}…' is outside the directories`));
    const secret = await call(server.client, 'read_text', { path: 'x?token=abc123/y' });
    expect(secret.text).toBe("Path 'x?token=***' does not exist; check the spelling, or list its folder.");
    expect(await server.stop()).toBe(0);
  });

  it('refuses a `..` after a missing folder that would lead through a link outside (review item 1)', async () => {
    const server = await start();
    // `nope` is missing, so `nope/..` is the root and `folder-out` the link to outside: refused everywhere.
    const made = await call(server.client, 'make_folder', { path: 'nope/../folder-out/made' });
    expect(made.text).toMatch(/^Path 'nope\/\.\.\/folder-out\/made' is outside the directories/);
    await expect(lstat(path.join(outside, 'made'))).rejects.toThrow();
    const read = await call(server.client, 'read_text', { path: 'nope/../link-out' });
    expect(read.text).toMatch(/^Path 'nope\/\.\.\/link-out' does not exist/);
    const written = await call(server.client, 'write_text', { path: 'nope/../link-out', text: 'evil' });
    expect(written.isError).toBe(true);
    expect(await readFile(path.join(outside, 'data.txt'), 'utf8')).toBe('outside bytes');
    // The same folder through a missing segment that stays inside is made.
    const inside = await call(server.client, 'make_folder', { path: 'nope/../inside/made' });
    expect(inside).toEqual({ isError: false, text: 'made inside/made' });
    expect(await server.stop()).toBe(0);
  });

  it('refuses a 120 KB path at once, and dangling and looping links with their own codes', async () => {
    const server = await start();
    const huge = await call(server.client, 'read_text', { path: `${'a/'.repeat(60_000)}x` });
    expect(huge.text).toContain('is longer than 4096 bytes');
    const answers = await Promise.all(
      ['dangling-out', 'dangling-in', 'loop-a', 'link-out'].map((given) =>
        call(server.client, 'read_text', { path: given }),
      ),
    );
    expect(answers.map((answer) => answer.text.replace(/^Path '[^']*' /, '').split(/[;.]/)[0])).toEqual([
      'is outside the directories this server may read',
      'does not exist',
      'runs into a loop of symbolic links',
      'is outside the directories this server may read',
    ]);
    expect(await server.stop()).toBe(0);
  });
});
