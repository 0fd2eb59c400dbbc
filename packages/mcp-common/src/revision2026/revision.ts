// MCP 2026-07-28 (SEP-2575 and friends): no initialize handshake and no session. Every request carries its
// protocol version, the client's capabilities and optionally its identity in `_meta`; the server answers
// each on its own. These are the names, codes and checks of that revision, shared by stdio and HTTP.
import { INVALID_PARAMS, type RpcId, type Screened, screenMessage } from '../rpcScreening.js';

export const MODERN_REVISION = '2026-07-28';
/** The revisions that open with initialize; served by the SDK Server as before. */
export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** What server/discover and an unsupported-version error list. */
export const SUPPORTED_REVISIONS = [MODERN_REVISION, ...LEGACY_REVISIONS] as const;

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** Methods of the 2025 revisions that 2026-07-28 removed: answered -32601 for a 2026-07-28 request. */
export const REMOVED_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  // Tasks moved into the io.modelcontextprotocol/tasks extension, which has neither.
  'tasks/result',
  'tasks/list',
]);

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

/** Over stdio both revisions share one stream: a message carrying 2026-07-28 `_meta` is screened as one. */
export function screenEitherRevision(raw: unknown): Screened {
  return carriesRequestMeta((raw as { params?: unknown } | null)?.params)
    ? screenModern(raw)
    : screenMessage(raw);
}

export const METHOD_NOT_FOUND = -32601;
/** An HTTP header disagrees with the body (or a required one is missing). */
export const HEADER_MISMATCH = -32020;
/** The request needs a client capability the client did not declare. */
export const MISSING_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

export interface ModernRequest {
  id: RpcId;
  method: string;
  params: Record<string, unknown>;
  meta: RequestMeta;
}

export interface RequestMeta {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  logLevel?: string;
  progressToken?: string | number;
}

/** Whether a request speaks 2026-07-28 (or later): it names its protocol version in `_meta`. */
export function carriesRequestMeta(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && META.protocolVersion in meta;
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/**
 * Checks a request's `_meta` as the revision requires: protocol version and client capabilities present
 * (-32602 naming what is missing), the version one this server speaks (-32022 listing the supported ones
 * and echoing the requested one).
 */
export function readRequestMeta(
  params: unknown,
): { ok: true; meta: RequestMeta } | { ok: false; error: RpcErrorBody } {
  const meta = metaOf(params);
  if (meta === undefined) {
    return invalid(
      `Invalid params: '_meta' is required and must carry '${META.protocolVersion}' and '${META.clientCapabilities}'.`,
    );
  }
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string' || version === '') {
    return invalid(
      `Invalid params: '_meta.${META.protocolVersion}' is required (a protocol version string).`,
    );
  }
  const capabilities = meta[META.clientCapabilities];
  if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) {
    return invalid(
      `Invalid params: '_meta.${META.clientCapabilities}' is required (an object, possibly empty).`,
    );
  }
  const info = meta[META.clientInfo];
  if (info !== undefined && !isImplementation(info)) {
    return invalid(
      `Invalid params: '_meta.${META.clientInfo}' must be an object with string 'name' and 'version'.`,
    );
  }
  if (version !== MODERN_REVISION) return { ok: false, error: unsupportedVersion(version) };
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && !Number.isSafeInteger(token)) {
    return invalid("Invalid params: '_meta.progressToken' must be a string or an integer.");
  }
  const level = meta[META.logLevel];
  return {
    ok: true,
    meta: {
      protocolVersion: version,
      clientCapabilities: capabilities as Record<string, unknown>,
      ...(info === undefined ? {} : { clientInfo: info as { name: string; version: string } }),
      ...(typeof level === 'string' ? { logLevel: level } : {}),
      ...(token === undefined ? {} : { progressToken: token as string | number }),
    },
  };
}

export function unsupportedVersion(requested: string): RpcErrorBody {
  return {
    code: UNSUPPORTED_PROTOCOL_VERSION,
    message: `Unsupported protocol version '${requested.slice(0, 64)}'; this server speaks ${SUPPORTED_REVISIONS.join(', ')}.`,
    data: { supported: [...SUPPORTED_REVISIONS], requested },
  };
}

function isImplementation(value: unknown): boolean {
  const info = value as { name?: unknown; version?: unknown } | null;
  return (
    typeof info === 'object' &&
    info !== null &&
    typeof info.name === 'string' &&
    typeof info.version === 'string'
  );
}

function invalid(message: string): { ok: false; error: RpcErrorBody } {
  return { ok: false, error: { code: INVALID_PARAMS, message } };
}
