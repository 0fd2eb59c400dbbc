import { defineTool, fitList, pagingArguments, pagingOutput, ToolResult } from '@groundwork/mcp-common';
import { z } from 'zod';
import { checkBuildHealth } from '../core/health/buildHealth.js';
import { pageOf, pathArgument, withWorkspace } from './buildRoot.js';
import { problemSchema, problemsOf, systemSchema } from './schemas.js';

export const buildHealthTool = defineTool({
  definition: {
    name: 'build_health',
    title: 'Build health',
    description:
      'Static findings about the build configuration, each with a rule id, severity, rationale, documentation link and the file:line to edit: build cache, parallel execution or configuration cache off, no or an old Gradle wrapper, no Maven wrapper, dynamic / + / latest.* / SNAPSHOT versions, jcenter() and mavenLocal(), Maven plugins without a version, one artifact at different versions across modules, eager task APIs, allprojects/subprojects configuration. Nothing runs. The same check in CI: `groundwork-build health <path> --format sarif`.',
    input: z.object({ path: pathArgument, ...pagingArguments }),
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
      ...pagingOutput,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async apply(args, ctx) {
    return withWorkspace(args.path, ctx, async (workspace) => {
      const findings = checkBuildHealth(workspace);
      const pageCursor = pageOf('build_health', args, workspace);
      const count = (severity: string) => findings.filter((finding) => finding.severity === severity).length;
      const totals = { errors: count('error'), warnings: count('warning'), notes: count('note') };
      const problems = problemsOf(workspace.problems);
      const { answer } = await fitList(findings, {
        budget: ctx.answer,
        ...pageCursor,
        frame: (page, paging) => ({ findings: page, totals, problems, ...paging }),
      });
      return ToolResult.success(answer);
    });
  },
});
