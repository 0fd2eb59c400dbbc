// The output shapes the running tools share.
import { optionalBoundedInt } from '@groundwork/mcp-common';
import { z } from 'zod';
import { TASK_OUTCOMES } from '../core/run/runResult.js';

export const outcomeSchema = z.enum(TASK_OUTCOMES as [string, ...string[]]);

export const taskSchema = z.object({
  task: z.string(),
  outcome: outcomeSchema,
  actionable: z.boolean(),
  duration_ms: z.number().optional(),
  execution: z.string().optional(),
  failure: z.string().optional(),
});

export const problemSchema = z.object({
  task: z.string().optional(),
  kind: z.enum(['compile', 'test', 'build']),
  file: z.string().optional(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  message: z.string(),
  code: z.string().optional(),
});

export const runSchema = {
  run_id: z.string().describe('Pass to build_log to page the whole log of this run.'),
  system: z.string(),
  commands: z
    .array(z.string())
    .describe('What ran, in the build root (`<run>` is a private folder of the server).'),
  status: z.enum(['succeeded', 'failed', 'timed_out']),
  exit_code: z.number().int().optional(),
  duration_ms: z.number(),
  network_needed: z
    .object({ evidence: z.string(), fix: z.string() })
    .optional()
    .describe('Set when the build failed because it needed the network while offline.'),
  problems: z.array(problemSchema).describe('Compiler errors and failing tests at their file:line.'),
  problems_dropped: z.number().int(),
  log_tail: z.array(z.string()),
  log: z.object({ lines: z.number().int(), bytes: z.number().int(), truncated: z.boolean() }),
};

export const timeoutArgument = {
  timeout_seconds: optionalBoundedInt(
    10,
    7_200,
    900,
    'The build (all its processes) is killed when this passes.',
  ),
};
