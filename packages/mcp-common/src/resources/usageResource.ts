// The server's MCP_USAGE.md as a resource: listed and read the same way by every protocol revision.
import { maskSecrets } from '../masking/masking.js';
import { RpcError, RpcErrorCode } from '../protocol/rpcError.js';
import type { ServerApp } from '../server/serverApp.js';

export function usageUri(app: ServerApp): string {
  return `groundwork://${app.name}/usage`;
}

export function usageResources(app: ServerApp) {
  if (app.usage === undefined) return [];
  return [
    {
      uri: usageUri(app),
      name: 'MCP_USAGE.md',
      title: `How to use ${app.name}`,
      description: 'Every tool of this server, its parameters, example calls and results.',
      mimeType: 'text/markdown',
    },
  ];
}

/** Throws -32602 naming the URI (in `data.uri` too) for any resource this server does not have. */
export function readUsage(app: ServerApp, uri: string) {
  if (app.usage === undefined || uri !== usageUri(app)) {
    // Quoted cut short and masked: the URI is the client's, of any length, and may carry a token.
    const quoted = maskSecrets(uri.length > 200 ? `${uri.slice(0, 200)}…` : uri);
    throw new RpcError(RpcErrorCode.InvalidParams, `Unknown resource '${quoted}'.`, { uri: quoted });
  }
  return { contents: [{ uri: usageUri(app), mimeType: 'text/markdown', text: app.usage }] };
}
