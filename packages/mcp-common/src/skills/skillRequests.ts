// The request shapes of the skills extension's two methods, which the SDK does not know, for the screening
// (protocol/screening.ts); the dispatcher answers them from the SkillCatalog in both eras.
import { z } from 'zod';

export const ListSkillsRequest = z.object({
  method: z.literal('skills/list'),
  params: z.looseObject({ cursor: z.string().optional() }).optional(),
});

export const GetSkillRequest = z.object({
  method: z.literal('skills/get'),
  params: z.looseObject({ uri: z.string() }),
});
