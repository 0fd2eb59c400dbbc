// The whole bootstrap of a groundwork server: command line, allowed paths, transport.
import { readFile } from 'node:fs/promises';
import { AllowedPaths } from '../files/allowedPaths.js';
import { createLogger, preloadLogger } from '../logger.js';
import type { McpPrompt } from '../prompts/prompt.js';
import { PromptCatalog } from '../prompts/promptCatalog.js';
import { SkillCatalog } from '../skills/skillCatalog.js';
import type { McpTool } from '../tools/tool.js';
import { ToolRegistry } from '../tools/toolRegistry.js';
import { parseCommandLine, type ServerSwitch, type StartupOptions, usage } from './commandLine.js';
import type { ServerApp } from './serverApp.js';

export interface ServerSpec {
  /** The bin's name, e.g. `groundwork-data`. */
  name: string;
  /** The server package's version (read from its package.json by the bin). */
  version: string;
  tools: readonly McpTool[];
  /** Each server has its own, so all can run side by side. */
  defaultPort: number;
  /** Told to the client at initialize: when to use this server. */
  instructions?: string;
  /** The server's MCP_USAGE.md, offered to clients as a resource. */
  usageFile?: URL;
  /** Prompts for the server's workflows (`prompts/list`, `prompts/get`), with completable arguments. */
  prompts?: readonly McpPrompt[];
  /**
   * The server's Agent Skills folder (`servers/<name>/skills/`, one `<skill>/SKILL.md` per skill), served
   * through the `io.modelcontextprotocol/skills` extension as `skill://` resources. Read when first asked
   * for, never at start-up.
   */
  skillsDir?: URL;
  /** Opt-ins the operator may give at start (`--<flag>`); tools read them from `ctx.switches`. */
  switches?: readonly ServerSwitch[];
}

/** Parses `argv` and serves `spec` until the client (stdio) or a signal (HTTP) ends it. */
export async function runServer(spec: ServerSpec, argv = process.argv.slice(2)): Promise<void> {
  const commandLine = parseCommandLine(argv, process.env, spec.defaultPort, spec.switches);
  switch (commandLine.kind) {
    case 'help':
      process.stdout.write(usage(spec.name, spec.defaultPort, spec.switches));
      return;
    case 'version':
      process.stdout.write(`${spec.version}\n`);
      return;
    case 'invalid':
      process.stderr.write(
        `${spec.name}: ${commandLine.message}\n\n${usage(spec.name, spec.defaultPort, spec.switches)}`,
      );
      process.exitCode = 2;
      return;
  }
  const options = commandLine.options;
  const app = await buildApp(spec, options);
  if (options.transport === 'stdio') {
    const { serveStdio } = await import('../stdio/serveStdio.js');
    return serveStdio(app);
  }
  // Loaded only here, so a stdio start never pays for the HTTP stack.
  const { serveHttp } = await import('../http/httpHost.js');
  const { limits: _limits, textBlock: _textBlock, ...httpOptions } = options;
  const running = await serveHttp(app, { ...httpOptions, mode: options.transport });
  process.stderr.write(`${spec.name} ${spec.version} serving ${options.transport} at ${running.url}\n`);
  // As on stdio (stdio.ts): built once serving, not before, and a tool whose schema cannot be listed fails here.
  void app.registry.listing;
  preloadLogger(app.logger);
  const stop = () => {
    running.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

async function buildApp(spec: ServerSpec, options: StartupOptions): Promise<ServerApp> {
  const logger = (() => {
    try {
      return createLogger(spec.name);
    } catch (error) {
      process.stderr.write(`${spec.name}: ${(error as Error).message}\n`);
      process.exit(2);
    }
  })();
  const [allowedPaths, usageText] = await Promise.all([
    AllowedPaths.under(...options.allowedDirs).catch((error: NodeJS.ErrnoException) => {
      process.stderr.write(
        `${spec.name}: an allowed directory does not exist or cannot be read (${error.code}).\n`,
      );
      process.exit(2);
    }),
    spec.usageFile === undefined ? undefined : readFile(spec.usageFile, 'utf8').catch(() => undefined),
  ]);
  return {
    name: spec.name,
    version: spec.version,
    ...(spec.instructions === undefined ? {} : { instructions: spec.instructions }),
    registry: new ToolRegistry(spec.tools, logger, options.textBlock),
    allowedPaths,
    logger,
    ...(usageText === undefined ? {} : { usage: usageText }),
    limits: options.limits,
    switches: new Set(options.switches),
    ...(spec.prompts === undefined
      ? {}
      : {
          prompts: new PromptCatalog(spec.prompts, logger, options.limits.maxResultBytes, {
            maxRunning: options.limits.maxCalls,
            maxQueued: options.limits.maxQueuedCalls,
          }),
        }),
    // Only the folder's name here: it is read when a client first asks for skills.
    ...(spec.skillsDir === undefined ? {} : { skills: new SkillCatalog(spec.skillsDir, logger) }),
  };
}
