// Binds the transport-neutral pieces (tool registry, usage document, logging) to an SDK Server. One
// Server serves one session; everything that can be built once lives in ServerApp and is shared.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  type InitializeRequest,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type ServerNotification,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { clientAddressOf } from './http/statelessTransport.js';
import { promptsOf } from './promptCatalog.js';
import { listResources, readResource } from './resources.js';
import type { ServerApp } from './serverApp.js';
import { SKILLS_CAPABILITY, SKILLS_EXTENSION } from './skills/skillCatalog.js';
import { serveSkills } from './skills/skillRequests.js';
import { legacyTasksCapability, serveLegacyTasks } from './tasks/legacyTasks.js';
import type { LogLevel } from './tool.js';
import { runToolCall, sessionLimiter, type ToolCallRequest } from './toolCalls.js';

export type { ServerApp } from './serverApp.js';

export { usageUri } from './usageResource.js';

export interface ProtocolServerOptions {
  /**
   * One Server answers every client (stateless HTTP): nothing per client may live in it, so
   * `logging/setLevel` is not offered there (a level set by one client would apply to all).
   */
  stateless: boolean;
}

// The first protocol version whose clients read `structuredContent`; older ones get the JSON as text.
const STRUCTURED_OUTPUT_VERSION = '2025-06-18';
/** The revision that brought tasks (and `execution.taskSupport` in tools/list). */
const TASKS_VERSION = '2025-11-25';

// Left to itself, every SDK Server builds its own Ajv instance (about 18 KiB and 1 ms per session) for
// validating elicitation answers; one shared instance, built only if ever needed, serves every session.
let sharedValidator: AjvJsonSchemaValidator | undefined;
const lazyValidator: jsonSchemaValidator = {
  getValidator(schema) {
    sharedValidator ??= new AjvJsonSchemaValidator();
    return sharedValidator.getValidator(schema);
  },
};

export function createProtocolServer(app: ServerApp, options: ProtocolServerOptions): Server {
  const prompts = promptsOf(app);
  const server = new Server(
    { name: app.name, version: app.version },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: {},
        // Announced even when empty: an empty list answers clients that ask (as in 2026-07-28).
        prompts: { listChanged: false },
        ...(prompts.completable ? { completions: {} } : {}),
        ...(options.stateless ? {} : { logging: {} }),
        ...(app.skills === undefined ? {} : { extensions: { [SKILLS_EXTENSION]: SKILLS_CAPABILITY } }),
        tasks: legacyTasksCapability(options.stateless),
      },
      ...(app.instructions === undefined ? {} : { instructions: app.instructions }),
      jsonSchemaValidator: lazyValidator,
    },
  );
  let clientLevel: LogLevel = 'info';
  const tools = () => ({ tools: app.registry.listing });
  // A client of a revision before tasks sees the tools exactly as before (no `execution`).
  let toolsBeforeTasks: { tools: unknown[] } | undefined;
  const beforeTasks = () => {
    toolsBeforeTasks ??= { tools: app.registry.listing.map(({ execution: _execution, ...tool }) => tool) };
    return toolsBeforeTasks;
  };
  const limiter = sessionLimiter(app);
  const negotiated = rememberProtocolVersion(server);
  const tasks = serveLegacyTasks(server, app, options.stateless);

  if (!options.stateless) {
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      clientLevel = request.params.level;
      return {};
    });
  }
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
    const version = options.stateless
      ? headerOf(extra.requestInfo?.headers, 'mcp-protocol-version')
      : negotiated();
    return version !== undefined && version < TASKS_VERSION ? beforeTasks() : tools();
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: prompts.listing }));
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    prompts.render(request.params.name, request.params.arguments, {
      signal: extra.signal,
      allowedPaths: app.allowedPaths,
    }),
  );
  if (prompts.completable) {
    server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
      prompts.complete(request.params, { signal: extra.signal, allowedPaths: app.allowedPaths }),
    );
  }
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    // In stateless mode each request names its protocol version in a header.
    const version = options.stateless
      ? headerOf(extra.requestInfo?.headers, 'mcp-protocol-version')
      : negotiated();
    const call: ToolCallRequest = {
      tool: request.params.name,
      arguments: request.params.arguments,
      progressToken: request.params._meta?.progressToken,
      signal: extra.signal,
      send: (notification) =>
        extra.sendNotification(notification as ServerNotification).catch(() => undefined),
      clientLevel: options.stateless ? () => undefined : () => clientLevel,
      sessionLimiter: limiter,
      structuredOutput: version !== undefined && version >= STRUCTURED_OUTPUT_VERSION,
    };
    // A client that asked for a task gets one (tasks/legacyTasks.ts); every other call is answered here.
    return tasks.start(request.params, call, clientAddressOf(extra.requestInfo)) ?? runToolCall(app, call);
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(app) }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(app, request.params.uri));
  if (app.skills !== undefined) serveSkills(server, app.skills);
  return server;
}

/**
 * The protocol version this session negotiated at initialize. The SDK keeps it to itself, so its
 * initialize step is wrapped (it stays the SDK's own: capabilities and client info are still recorded).
 */
function rememberProtocolVersion(server: Server): () => string | undefined {
  let version: string | undefined;
  // biome-ignore lint/complexity/useLiteralKeys: a private SDK member; only element access may reach it
  const initialize = server['_oninitialize'].bind(server);
  // biome-ignore lint/complexity/useLiteralKeys: as above
  server['_oninitialize'] = async (request: InitializeRequest) => {
    const result = await initialize(request);
    version = result.protocolVersion;
    return result;
  };
  return () => version;
}

function headerOf(headers: Record<string, string | string[] | undefined> | undefined, name: string) {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}
