// Every resource a server offers, for both protocol revisions: its usage document and its skill files.
import type { ServerApp } from '../server/serverApp.js';
import { readUsage, usageResources } from './usageResource.js';

export async function listResources(app: ServerApp): Promise<Array<Record<string, unknown>>> {
  return [...usageResources(app), ...((await app.skills?.resources()) ?? [])];
}

/** Throws -32602 naming the URI for a resource this server does not have. */
export async function readResource(app: ServerApp, uri: string) {
  return (await app.skills?.read(uri)) ?? readUsage(app, uri);
}
