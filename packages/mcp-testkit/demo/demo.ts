// The README's demo: a real MCP client (the official SDK) drives every built groundwork server over
// stdio and over streamable HTTP, and prints what it got. Each server names its demo call in its
// package.json ("groundwork": { "demo": … }), so this file knows nothing server-specific.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findExecutable } from '@groundwork/mcp-common/childProcess';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

interface DemoCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** Relative to the server's folder: the directory the server may read. */
  allowedDir: string;
  /**
   * The prompt to render (default: the first listed); arguments not given are completed (a required one takes
   * the first value). `complete` names an argument to complete as well, given or not.
   */
  prompt?: { name: string; arguments?: Record<string, string>; complete?: string };
  /** The call to run as a task, when the demo call's tool cannot run as one (default: the demo call). */
  task?: { tool: string; arguments: Record<string, unknown> };
  /**
   * Calls that need a tool the README's demo does not (a build tool): the first whose `requires` command is
   * on PATH runs, on a copy of `fixture` (relative to the server's folder; the copy is its `path`), the server
   * started with `serverArgs` as well; with none on PATH the demo says so and goes on.
   */
  run?: Array<{
    requires: string;
    fixture: string;
    tool: string;
    arguments: Record<string, unknown>;
    serverArgs: string[];
  }>;
}

interface DemoServer {
  name: string;
  dir: string;
  bin: string;
  allowedDir: string;
  call: DemoCall;
}

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const MAX_LINES = 24;

function discoverServers(): DemoServer[] {
  const serversDir = path.join(repo, 'servers');
  return readdirSync(serversDir)
    .sort()
    .flatMap((folder) => {
      const manifestPath = path.join(serversDir, folder, 'package.json');
      if (!existsSync(manifestPath)) return [];
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      const call: DemoCall | undefined = manifest.groundwork?.demo;
      const [name, binPath] = Object.entries<string>(manifest.bin ?? {})[0] ?? [];
      const bin = binPath === undefined ? undefined : path.join(serversDir, folder, binPath);
      if (call === undefined || name === undefined || bin === undefined || !existsSync(bin)) {
        process.stderr.write(`(skipping ${folder}: not built or no demo call)\n`);
        return [];
      }
      const dir = path.join(serversDir, folder);
      return [{ name, dir, bin, allowedDir: path.join(dir, call.allowedDir), call }];
    });
}

async function exercise(client: Client, server: DemoServer, transport: string): Promise<void> {
  const info = client.getServerVersion();
  const { tools } = await client.listTools();
  console.log(`\n=== ${server.name} over ${transport}: ${info?.name} ${info?.version}`);
  console.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
  await showCall(client, server.call.tool, server.call.arguments);
}

/** One tool call and the first lines of its answer; an error answer fails the demo. */
async function showCall(client: Client, tool: string, args: Record<string, unknown>): Promise<void> {
  console.log(`call:  ${tool} ${JSON.stringify(args)}`);
  const started = performance.now();
  // A build may take minutes: the SDK's default request timeout (60 s) is not the demo's to impose.
  const result = await client.callTool({ name: tool, arguments: args }, CallToolResultSchema, {
    timeout: 600_000,
  });
  const elapsed = (performance.now() - started).toFixed(1);
  const shown = result.structuredContent ?? result.content;
  const lines = JSON.stringify(shown, null, 2).split('\n');
  console.log(`result (${result.isError ? 'ERROR' : 'ok'}, ${elapsed} ms):`);
  console.log(
    lines.slice(0, MAX_LINES).join('\n') +
      (lines.length > MAX_LINES ? `\n  … ${lines.length - MAX_LINES} more lines` : ''),
  );
  if (result.isError) process.exitCode = 1;
}

const SkillList = z.object({
  skills: z.array(
    z.object({
      uri: z.string(),
      frontmatter: z.record(z.string(), z.unknown()),
      resources: z.array(z.unknown()),
    }),
  ),
});

/** One skill, one prompt and one completion, for whatever the server offers (nothing server-specific). */
async function showPrimitives(client: Client, server: DemoServer): Promise<void> {
  const capabilities = client.getServerCapabilities();
  if (capabilities?.extensions?.['io.modelcontextprotocol/skills'] !== undefined) {
    const { skills } = await client.request({ method: 'skills/list', params: {} }, SkillList);
    console.log(`skills: ${skills.map((skill) => skill.frontmatter.name).join(', ') || '(none)'}`);
    const [skill] = skills;
    if (skill !== undefined) {
      const [manifest] = (await client.readResource({ uri: skill.uri })).contents;
      const text = manifest !== undefined && 'text' in manifest ? manifest.text : '';
      console.log(`skill: ${skill.uri} (${skill.resources.length} file(s), ${text.length} characters)`);
      console.log(`  ${String(skill.frontmatter.description)}`);
    }
  }
  const { prompts } = await client.listPrompts();
  if (prompts.length === 0) return;
  console.log(`prompts: ${prompts.map((prompt) => prompt.name).join(', ')}`);
  const chosen = server.call.prompt ?? { name: (prompts[0] as { name: string }).name };
  const prompt = prompts.find((candidate) => candidate.name === chosen.name);
  if (prompt === undefined) throw new Error(`${server.name} has no prompt '${chosen.name}'`);
  const args: Record<string, string> = { ...chosen.arguments };
  const shown = (prompt.arguments ?? []).filter(
    (argument) => args[argument.name] === undefined || argument.name === server.call.prompt?.complete,
  );
  for (const argument of capabilities?.completions === undefined ? [] : shown) {
    const { [argument.name]: _self, ...others } = args;
    const { completion } = await client.complete({
      ref: { type: 'ref/prompt', name: prompt.name },
      argument: { name: argument.name, value: '' },
      context: { arguments: others },
    });
    // An argument with nothing to offer here (a PostgreSQL variable, free text) is not shown.
    if (completion.values.length === 0 && argument.name !== server.call.prompt?.complete) continue;
    console.log(
      `complete: ${prompt.name}.${argument.name} '' → ${JSON.stringify(completion.values.slice(0, 8))}${completion.hasMore ? ` … (${completion.total ?? 'more'} in all)` : ''}`,
    );
    const [first] = completion.values;
    if (args[argument.name] === undefined && argument.required === true && first !== undefined) {
      args[argument.name] = first;
    }
  }
  console.log(`prompt: ${prompt.name} ${JSON.stringify(args)}`);
  const rendered = await client.getPrompt({ name: prompt.name, arguments: args }).catch((error: Error) => {
    console.log(`  ERROR ${error.message}`);
    process.exitCode = 1;
    return undefined;
  });
  if (rendered === undefined) return;
  const text = rendered.messages
    .map((message) => ('text' in message.content ? message.content.text : `[${message.content.type}]`))
    .join('\n');
  const lines = text.split('\n');
  console.log(
    lines
      .slice(0, MAX_LINES / 2)
      .map((line) => `  ${line}`)
      .join('\n') + (lines.length > MAX_LINES / 2 ? `\n  … ${lines.length - MAX_LINES / 2} more lines` : ''),
  );
}

/** The demo call (or the server's `task` call) as a task: created, its result fetched, its status read. */
async function showTask(client: Client, server: DemoServer): Promise<void> {
  const call = server.call.task ?? { tool: server.call.tool, arguments: server.call.arguments };
  const { tools } = await client.listTools();
  const tool = tools.find((candidate) => candidate.name === call.tool);
  if (tool?.execution?.taskSupport !== 'optional') {
    console.log(`task:  (${call.tool} always answers at once; no task)`);
    return;
  }
  const created = await client.request(
    { method: 'tools/call', params: { name: call.tool, arguments: call.arguments, task: {} } },
    CreateTaskResultSchema,
  );
  const { taskId } = created.task;
  console.log(
    `task:  ${call.tool} ${JSON.stringify(call.arguments)} → ${taskId.slice(0, 8)}… ${created.task.status}`,
  );
  const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
  const { status } = await client.experimental.tasks.getTask(taskId);
  console.log(`  tasks/result: ${result.isError ? 'ERROR' : 'ok'}; tasks/get: ${status}`);
  if (result.isError) process.exitCode = 1;
}

async function overStdio(server: DemoServer): Promise<void> {
  const client = new Client({ name: 'groundwork-demo', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [server.bin, '--allowed-dir', server.allowedDir],
      stderr: 'ignore',
    }),
  );
  try {
    await exercise(client, server, 'stdio');
    await showPrimitives(client, server);
  } finally {
    await client.close();
  }
}

async function overHttp(server: DemoServer): Promise<void> {
  const child = spawn(
    process.execPath,
    [server.bin, '--transport', 'streamable-http', '--port', '0', '--allowed-dir', server.allowedDir],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const url = await listeningUrl(child);
    const client = new Client({ name: 'groundwork-demo', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    try {
      await exercise(client, server, `streamable HTTP (${url})`);
      await showTask(client, server);
      await transport.terminateSession();
    } finally {
      await client.close();
    }
  } finally {
    child.kill('SIGTERM');
  }
}

/** The server's `run` call, on a throw-away copy of its fixture, when its tool is installed; else a note. */
async function showRun(server: DemoServer): Promise<void> {
  const steps = server.call.run ?? [];
  if (steps.length === 0) return;
  // Looked up, not started (a JVM tool starts slowly).
  const step = steps.find(
    (candidate) => findExecutable(candidate.requires, process.cwd(), process.env.PATH) !== undefined,
  );
  if (step === undefined) {
    const tools = steps.map((candidate) => candidate.requires).join(' or ');
    console.log(
      `\n=== ${server.name}: ${steps[0]?.tool} not shown (it needs ${tools} on PATH, and none is found there)`,
    );
    return;
  }
  const copy = mkdtempSync(path.join(tmpdir(), 'groundwork-demo-'));
  try {
    cpSync(path.join(server.dir, step.fixture), copy, { recursive: true });
    const client = new Client({ name: 'groundwork-demo', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [server.bin, '--allowed-dir', copy, ...step.serverArgs],
        stderr: 'ignore',
      }),
    );
    try {
      console.log(
        `\n=== ${server.name} over stdio, ${step.requires} on PATH, started with ${step.serverArgs.join(' ')}, on a copy of ${step.fixture}`,
      );
      await showCall(client, step.tool, { ...step.arguments, path: copy });
    } finally {
      await client.close();
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${seen}`)), 10_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /serving \S+ at (\S+)/.exec(seen);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${seen}`)));
  });
}

const servers = discoverServers();
if (servers.length === 0) {
  console.error('No built servers found: run `pnpm build` first.');
  process.exit(1);
}
for (const server of servers) {
  await overStdio(server);
  await overHttp(server);
  await showRun(server);
}
console.log(
  `\nDemo done: ${servers.length} server(s), each over stdio (a skill, a prompt, a completion) and streamable HTTP (a task).`,
);
