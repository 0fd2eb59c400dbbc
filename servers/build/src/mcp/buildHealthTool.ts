import { defineTool, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { checkBuildHealth } from '../core/health/buildHealth.js';
import { pathArgument, withWorkspace } from './buildRoot.js';
import { cursorOf, offsetOf, pageArguments, pageOf, pageSchema } from './page.js';
import { problemSchema, problemsOf, systemSchema } from './schemas.js';

export const buildHealthTool = defineTool({
  definition: {
    name: 'build_health',
    title: 'Build health',
    description:
      'Static findings about the build configuration, each with a rule id, severity, rationale, documentation link and the file:line to edit: build cache, parallel execution or configuration cache off, no or an old Gradle wrapper, no Maven wrapper, dynamic / + / latest.* / SNAPSHOT versions, jcenter() and mavenLocal(), Maven plugins without a version, one artifact at different versions across modules, eager task APIs, allprojects/subprojects configuration. Nothing runs. The same check in CI: `groundwork-build health <path> --format sarif`.',
    input: z.object({ path: pathArgument, ...pageArguments }),
    output: z.object({
      findings: z.array(
        z.object({
          rule: z.string(),
          severity: z.enum(['error', 'warning', 'note']),
          system: systemSchema,
          module: z.string().optional(),
          file: z.string(),
          line: z.number().int(),
          message: z.string().describe('What was found and what to change.'),
          rationale: z.string(),
          docs: z.string(),
        }),
      ),
      totals: z.object({ errors: z.number().int(), warnings: z.number().int(), notes: z.number().int() }),
      problems: z.array(problemSchema).describe('Files not read or not parsed: their findings are missing.'),
      ...pageSchema,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    return withWorkspace(args.path, ctx, (workspace) => {
      const findings = checkBuildHealth(workspace);
      const page = pageOf(findings, offsetOf(args.cursor), args.limit);
      const count = (severity: string) => findings.filter((finding) => finding.severity === severity).length;
      return ToolResult.success({
        findings: page.items,
        totals: { errors: count('error'), warnings: count('warning'), notes: count('note') },
        problems: problemsOf(workspace.problems),
        truncated: page.more,
        ...(page.more ? { next_cursor: cursorOf(page.next) } : {}),
      });
    });
  },
});
