// The one gate every transport passes incoming JSON-RPC through before the dispatcher sees it. Nothing is
// dropped (the client would wait forever) and no raw schema dump goes back: every malformed message gets
// its JSON-RPC error: -32600 for an invalid request, -32602 naming the
// parameter for bad params of a method this server serves. Each carries the request's own id whenever it
// can be read (a client waits for that id); `id: null` only when it cannot.
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  CancelTaskRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { GetSkillRequest, ListSkillsRequest } from '../skills/skillRequests.js';
import { type Era, REMOVED_METHODS } from './eras.js';
import { errorReply, RpcErrorCode, type RpcErrorReply, type RpcId } from './rpcError.js';

export type Screened =
  | { ok: true; message: JSONRPCMessage }
  | { ok: false; reply: RpcErrorReply | undefined };

interface ParamsSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
  };
}

// The methods mcp-common serves, with the SDK's schemas of their params; the dispatcher answers any other
// method -32601 Method not found.
const SCHEMAS: Record<string, ParamsSchema> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
  'notifications/cancelled': CancelledNotificationSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
  'completion/complete': CompleteRequestSchema,
  'skills/list': ListSkillsRequest,
  'skills/get': GetSkillRequest,
  // Tasks (tasks/legacyTasks.ts, tasks/modernTasks.ts): a task id is a string in every revision.
  'tasks/get': GetTaskRequestSchema,
  'tasks/result': GetTaskPayloadRequestSchema,
  'tasks/cancel': CancelTaskRequestSchema,
  'tasks/list': ListTasksRequestSchema,
};

export function parseError(): RpcErrorReply {
  return errorReply(null, RpcErrorCode.ParseError, 'Parse error: the message is not valid JSON.');
}

/** Checks one parsed message. A refused notification has no reply (nothing may answer it). */
export function screenMessage(raw: unknown): Screened {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return invalid('a JSON-RPC message must be an object');
  }
  const message = raw as Record<string, unknown>;
  const hasId = 'id' in message;
  if (hasId && !validId(message.id)) {
    return invalid("'id' must be a string or an integer (null, fractions and objects are not ids)");
  }
  if (!('method' in message)) {
    return message.jsonrpc === '2.0' ? screenResponse(message) : invalid('\'jsonrpc\' must be "2.0"');
  }
  // A request (not a response): from here on its id, when it has one, is known to be readable.
  const id = hasId ? (message.id as RpcId) : undefined;
  if (message.jsonrpc !== '2.0') return invalid('\'jsonrpc\' must be "2.0"', id);
  if (typeof message.method !== 'string' || message.method === '') {
    return invalid("'method' must be a non-empty string", id);
  }
  if (
    'params' in message &&
    (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))
  ) {
    return id === undefined ? { ok: false, reply: undefined } : invalid("'params' must be an object", id);
  }
  const schema = SCHEMAS[message.method];
  if (schema !== undefined) {
    const checked = schema.safeParse({ method: message.method, params: message.params ?? {} });
    if (!checked.success) {
      if (id === undefined) return { ok: false, reply: undefined };
      return {
        ok: false,
        reply: errorReply(id, RpcErrorCode.InvalidParams, describeParamsProblem(checked.error?.issues)),
      };
    }
  }
  return { ok: true, message: message as JSONRPCMessage };
}

function screenResponse(message: Record<string, unknown>): Screened {
  const answers = ('result' in message ? 1 : 0) + ('error' in message ? 1 : 0);
  if (!validId(message.id) || answers !== 1) {
    return invalid(
      "a message needs a string 'method' (a request or notification) or an 'id' with one 'result' or 'error'",
    );
  }
  return { ok: true, message: message as JSONRPCMessage };
}

/** `id`: the request's, when it could be read; otherwise the answer carries `id: null`. */
function invalid(problem: string, id: RpcId | null = null): Screened {
  return { ok: false, reply: errorReply(id, RpcErrorCode.InvalidRequest, `Invalid Request: ${problem}.`) };
}

function validId(id: unknown): id is RpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

function describeParamsProblem(issues: Array<{ path: PropertyKey[]; message: string }> = []): string {
  const described = issues.slice(0, 3).map((issue) => {
    const path = issue.path.filter((key) => key !== 'params').map(String);
    const name = path.length > 0 ? path.join('.') : 'params';
    return `'${name}' ${issue.message.replace(/^Invalid input: /, '')}`;
  });
  return `Invalid params: ${described.join('; ') || 'they do not match the method'}.`;
}

/**
 * The 2025 screening, except that the params of methods 2026-07-28 removed are not checked: such a
 * request is answered -32601 (HTTP 404) whatever it carries, never -32602 for an initialize it cannot use.
 */
export function screenModern(raw: unknown): Screened {
  const method = (raw as { method?: unknown } | null)?.method;
  if (typeof method === 'string' && REMOVED_METHODS.has(method)) {
    // Screened as a method without params of its own: the envelope is still checked.
    const screened = screenMessage({ ...(raw as object), method: 'removed/method', params: {} });
    return screened.ok ? { ok: true, message: raw as never } : screened;
  }
  return screenMessage(raw);
}

/** The screening of a message of `era` (modern: removed methods are not checked, see screenModern). */
export function screenFor(era: Era): (raw: unknown) => Screened {
  return era === 'modern' ? screenModern : screenMessage;
}
