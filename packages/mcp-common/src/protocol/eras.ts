// The two eras of MCP this server speaks, and how a message is told to belong to one. Legacy: the revisions
// 2024-11-05 to 2025-11-25, which open a session with initialize. Modern: 2026-07-28 (SEP-2575 and friends),
// which has no handshake and no session: every request carries its protocol version, the client's
// capabilities and optionally its identity in `_meta`, and is answered on its own.

export type Era = 'legacy' | 'modern';

export const MODERN_REVISION = '2026-07-28';
/** The revisions that open with initialize, newest first. */
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
 * The era of one incoming message. Over HTTP the MCP-Protocol-Version header decides: absent or a legacy
 * revision is legacy (a 2025 client sends it after initialize), anything else is modern (and is refused
 * -32022 if it is no revision this server speaks). Over stdio, where there are no headers, the message
 * itself: a modern request names its protocol version in `_meta`, or asks server/discover.
 */
export function classify(message: unknown, http?: { protocolVersionHeader: string | undefined }): Era {
  if (http !== undefined) {
    const header = http.protocolVersionHeader;
    return header === undefined || isLegacyRevision(header) ? 'legacy' : 'modern';
  }
  const { method, params } = (message ?? {}) as { method?: unknown; params?: unknown };
  return method === 'server/discover' || carriesRequestMeta(params) ? 'modern' : 'legacy';
}

export function isLegacyRevision(version: string): boolean {
  return (LEGACY_REVISIONS as readonly string[]).includes(version);
}

/** Whether a request speaks 2026-07-28 (or later): it names its protocol version in `_meta`. */
function carriesRequestMeta(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && META.protocolVersion in meta;
}

export function metaOf(params: unknown): Record<string, unknown> | undefined {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}
