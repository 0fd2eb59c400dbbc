// Answers 2026-07-28 requests: each one stands alone (its `_meta` says who asks and what it can do), so
// nothing here is per client or per session, and any instance of a server can answer any request. The
// tools, resources and limits are the same ones the 2025 SDK Server serves (toolCalls.ts, usageResource.ts).

import { promptsOf } from '../promptCatalog.js';
import { listResources, readResource } from '../resources.js';
import type { RpcId } from '../rpcScreening.js';
import type { ServerApp } from '../serverApp.js';
import { SKILLS_CAPABILITY, SKILLS_EXTENSION } from '../skills/skillCatalog.js';
import { answerModernTaskMethod, MODERN_TASKS_CAPABILITY, startModernTask } from '../tasks/modernTasks.js';
import type { LogLevel } from '../tool.js';
import { isLogLevel, runToolCall, type Send, type ToolCallRequest } from '../toolCalls.js';
import {
  META,
  METHOD_NOT_FOUND,
  type RequestMeta,
  type RpcErrorBody,
  readRequestMeta,
  SUPPORTED_REVISIONS,
} from './revision.js';

/** One JSON-RPC answer: a result or an error, always carrying the request's id. */
export type ModernReply =
  | { jsonrpc: '2.0'; id: RpcId; result: Record<string, unknown> }
  | { jsonrpc: '2.0'; id: RpcId; error: RpcErrorBody };

export interface ModernCall {
  /** Aborted when the client goes away (HTTP: its connection closes). */
  signal: AbortSignal;
  /** Sends a notification related to this request (progress, log messages). */
  send: Send;
  /** Who asks (HTTP: the client address): what a task it creates counts against. */
  client?: string;
}

/**
 * Caching hints (SEP-2549) for results that change only with a new server version: the tool list, the
 * resource list and the usage document are built at start-up and the same for every client.
 */
export const CACHE_HINTS = { ttlMs: 300_000, cacheScope: 'public' } as const;

const CACHED_METHODS = new Set([
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'skills/list',
  'skills/get',
]);

export class ModernProtocol {
  private readonly serverInfo: { name: string; version: string };

  constructor(private readonly app: ServerApp) {
    this.serverInfo = { name: app.name, version: app.version };
  }

  /** Validates `_meta`, then answers. Never throws: every failure is a JSON-RPC error with the request's id. */
  async answer(id: RpcId, method: string, params: unknown, call: ModernCall): Promise<ModernReply> {
    const read = readRequestMeta(params);
    if (!read.ok) return { jsonrpc: '2.0', id, error: read.error };
    try {
      const result = await this.dispatch(method, (params ?? {}) as Record<string, unknown>, read.meta, call);
      const hinted = CACHED_METHODS.has(method) ? { ...result, ...CACHE_HINTS } : result;
      return {
        jsonrpc: '2.0',
        id,
        // A tools/call that became a task says `resultType: "task"` itself.
        result: { resultType: 'complete', ...hinted, _meta: { [META.serverInfo]: this.serverInfo } },
      };
    } catch (error) {
      return { jsonrpc: '2.0', id, error: asRpcError(error, this.app) };
    }
  }

  private async dispatch(
    method: string,
    params: Record<string, unknown>,
    meta: RequestMeta,
    call: ModernCall,
  ): Promise<Record<string, unknown>> {
    switch (method) {
      case 'server/discover':
        return {
          supportedVersions: [...SUPPORTED_REVISIONS],
          // prompts even when empty: an empty, cacheable list is a truthful answer for clients that ask.
          capabilities: {
            tools: {},
            resources: {},
            prompts: {},
            ...(promptsOf(this.app).completable ? { completions: {} } : {}),
            extensions: {
              ...MODERN_TASKS_CAPABILITY.extensions,
              ...(this.app.skills === undefined ? {} : { [SKILLS_EXTENSION]: SKILLS_CAPABILITY }),
            },
          },
          serverInfo: this.serverInfo,
          ...(this.app.instructions === undefined ? {} : { instructions: this.app.instructions }),
        };
      case 'tools/list':
        return { tools: this.app.registry.listing };
      case 'tools/call': {
        const level = meta.logLevel;
        const request: ToolCallRequest = {
          tool: params.name as string,
          arguments: params.arguments,
          progressToken: meta.progressToken,
          signal: call.signal,
          send: call.send,
          clientLevel: () => (isLogLevel(level) ? (level as LogLevel) : undefined),
          // Stateless: only the server-wide limit applies (there is no session to bound).
          sessionLimiter: undefined,
          structuredOutput: true,
        };
        // A client that declared the tasks extension may get a task instead (tasks/modernTasks.ts).
        return (
          startModernTask(this.app, meta.clientCapabilities, request, call.client ?? 'unknown') ??
          (await runToolCall(this.app, request))
        );
      }
      case 'tasks/get':
      case 'tasks/update':
      case 'tasks/cancel':
        return answerModernTaskMethod(this.app, method, params, meta.clientCapabilities);
      case 'resources/list':
        return { resources: await listResources(this.app) };
      case 'resources/templates/list':
        return { resourceTemplates: [] };
      case 'prompts/list':
        return { prompts: promptsOf(this.app).listing };
      case 'prompts/get':
        return promptsOf(this.app).render(params.name, params.arguments, {
          signal: call.signal,
          allowedPaths: this.app.allowedPaths,
        });
      case 'completion/complete': {
        const prompts = promptsOf(this.app);
        if (!prompts.completable) throw methodNotFound(method);
        return prompts.complete(params, { signal: call.signal, allowedPaths: this.app.allowedPaths });
      }
      case 'resources/read':
        return readResource(this.app, String(params.uri));
      case 'skills/list':
      case 'skills/get': {
        const skills = this.app.skills;
        if (skills === undefined) throw methodNotFound(method);
        return method === 'skills/list' ? skills.list(params) : skills.get(params);
      }
      default:
        // initialize, ping, logging/setLevel and resources/(un)subscribe are gone in 2026-07-28;
        // subscriptions/listen (nothing here ever changes) is not offered.
        throw methodNotFound(method);
    }
  }
}

function methodNotFound(method: string): Error {
  return Object.assign(new Error(`Method not found: '${method.slice(0, 100)}'.`), { code: METHOD_NOT_FOUND });
}

function asRpcError(error: unknown, app: ServerApp): RpcErrorBody {
  const coded = error as { code?: unknown; message?: unknown; data?: unknown };
  if (
    typeof coded.code === 'number' &&
    Number.isSafeInteger(coded.code) &&
    typeof coded.message === 'string'
  ) {
    return {
      code: coded.code,
      message: coded.message,
      ...(coded.data === undefined ? {} : { data: coded.data }),
    };
  }
  // A bug, not a client mistake: the details stay in the server's log.
  app.logger.error({ err: error }, 'request failed');
  return { code: -32603, message: 'Internal error.' };
}
