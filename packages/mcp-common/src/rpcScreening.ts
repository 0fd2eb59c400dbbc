// The one gate every transport passes incoming JSON-RPC through before the SDK sees it. The SDK drops what
// it cannot classify (the client would wait forever) and answers bad params with -32603 and a raw zod dump;
// here every malformed message gets its JSON-RPC error: -32600 for an invalid request, -32602 naming the
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
import { GetSkillRequest, ListSkillsRequest } from './skills/skillRequests.js';

export type RpcId = string | number;

/** A JSON-RPC error answer; `id` is null when the request's id could not be read. */
export interface RpcErrorReply {
  jsonrpc: '2.0';
  id: RpcId | null;
  error: { code: number; message: string };
}

export type Screened =
  | { ok: true; message: JSONRPCMessage }
  | { ok: false; reply: RpcErrorReply | undefined };

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

interface ParamsSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
  };
}

// The methods mcp-common serves; others go to the SDK, which answers -32601 Method not found.
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
  // Tasks (tasks/legacyTasks.ts, revision2026/modernTasks.ts): a task id is a string in every revision.
  'tasks/get': GetTaskRequestSchema,
  'tasks/result': GetTaskPayloadRequestSchema,
  'tasks/cancel': CancelTaskRequestSchema,
  'tasks/list': ListTasksRequestSchema,
};

export function rpcError(id: RpcId | null, code: number, message: string): RpcErrorReply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

export function parseError(): RpcErrorReply {
  return rpcError(null, PARSE_ERROR, 'Parse error: the message is not valid JSON.');
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
      return { ok: false, reply: rpcError(id, INVALID_PARAMS, describeParamsProblem(checked.error?.issues)) };
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
  return { ok: false, reply: rpcError(id, INVALID_REQUEST, `Invalid Request: ${problem}.`) };
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
