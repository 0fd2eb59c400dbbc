// The envelope of a 2026-07-28 request: what its `_meta` must carry, checked before any method runs.
import { META, MODERN_REVISION, metaOf, SUPPORTED_REVISIONS } from './eras.js';
import { type RpcErrorBody, RpcErrorCode } from './rpcError.js';

export interface RequestMeta {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  logLevel?: string;
  progressToken?: string | number;
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

function unsupportedVersion(requested: string): RpcErrorBody {
  return {
    code: RpcErrorCode.UnsupportedProtocolVersion,
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
  return { ok: false, error: { code: RpcErrorCode.InvalidParams, message } };
}
