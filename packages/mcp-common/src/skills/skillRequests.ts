// Registers the skills extension's two methods on an SDK v1 Server (2025 revisions). The SDK knows nothing
// of them, so their request shapes are declared here; the answers are the SkillCatalog's, as on 2026-07-28.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { z } from 'zod';
import type { SkillCatalog } from './skillCatalog.js';

export const ListSkillsRequest = z.object({
  method: z.literal('skills/list'),
  params: z.looseObject({ cursor: z.string().optional() }).optional(),
});

export const GetSkillRequest = z.object({
  method: z.literal('skills/get'),
  params: z.looseObject({ uri: z.string() }),
});

export function serveSkills(server: Server, skills: SkillCatalog): void {
  server.setRequestHandler(ListSkillsRequest, (request) => skills.list(request.params ?? {}));
  server.setRequestHandler(GetSkillRequest, (request) => skills.get(request.params));
}
