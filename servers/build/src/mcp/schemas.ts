// The output shapes the build tools share (snake_case on the wire, as every groundwork answer).

import { z } from 'zod';
import type { DeclaredDependency } from '../core/workspace/model.js';

export const SYSTEMS = ['gradle', 'maven', 'npm', 'pnpm', 'yarn', 'go', 'cargo'] as const;

export const systemSchema = z.enum(SYSTEMS);

export const locationSchema = z.object({
  file: z.string().describe('Relative to the root given as path.'),
  line: z.number().int().describe('1-based.'),
});

export const problemSchema = z.object({
  file: z.string(),
  line: z.number().int().optional(),
  code: z
    .string()
    .describe('SYNTAX_ERROR, WRONG_FILE_KIND, PATH_NOT_ALLOWED, FILE_TOO_LARGE, MODULE_NOT_FOUND…'),
  message: z.string(),
});

export const MAX_PROBLEMS = 50;

export function problemsOf(
  problems: ReadonlyArray<{ file: string; line?: number | undefined; code: string; message: string }>,
) {
  return problems.slice(0, MAX_PROBLEMS).map((problem) => ({
    file: problem.file,
    ...(problem.line === undefined ? {} : { line: problem.line }),
    code: problem.code,
    message: problem.message,
  }));
}

export const versionSchema = z.object({
  spec: z
    .string()
    .optional()
    .describe(
      'The version as written or found (1.2.3, [1.0,2.0), 1.+, ^4.17.0); absent when not known statically.',
    ),
  source: z
    .enum(['literal', 'catalog', 'property', 'dependency-management', 'bom', 'parent', 'workspace', 'none'])
    .describe('Where the version comes from.'),
  via: z.string().optional().describe('The catalog alias, property, BOM or managing POM.'),
  defined_at: locationSchema
    .optional()
    .describe('Where the version is defined, when not in the declaration itself: edit it there.'),
  unknown: z.string().optional().describe('Why the version cannot be known without running the build tool.'),
});

export const dependencySchema = z.object({
  system: systemSchema,
  module: z.string(),
  configuration: z
    .string()
    .describe('Gradle configuration, Maven scope, npm field, Cargo table, Go require.'),
  coordinates: z
    .string()
    .describe("group:name (Gradle, Maven), package (npm, Cargo), module path (Go); a project's id."),
  kind: z.enum(['external', 'project', 'platform', 'files']),
  version: versionSchema,
  at: locationSchema.describe('The declaration.'),
});

export function dependencyOf(dependency: DeclaredDependency) {
  const { definedAt, ...version } = dependency.version;
  return {
    system: dependency.system,
    module: dependency.module,
    configuration: dependency.configuration,
    coordinates: dependency.coordinates,
    kind: dependency.kind,
    version: {
      ...Object.fromEntries(Object.entries(version).filter(([, value]) => value !== undefined)),
      ...(definedAt === undefined ? {} : { defined_at: definedAt }),
    } as z.infer<typeof versionSchema>,
    at: dependency.at,
  };
}

/** A dependency as the build tool resolved it for one module and configuration (resolve: true). */
export const resolvedSchema = z.object({
  module: z.string(),
  configuration: z.string(),
  coordinates: z.string(),
  selected: z.string().optional(),
  requested: z.array(z.string()).describe('Every version asked for in the graph.'),
});
