// build_dependencies and build_why with `resolve: true`: the graph the build tool resolved (core/resolve),
// only when the operator allowed build execution.
import { optionalBoolean, type ToolContext } from '@groundwork/mcp-common';
import { pathsTo, resolvedDependencies } from '../core/resolve/resolvedGraph.js';
import { type Resolution, resolveWithBuildTool } from '../core/resolve/resolveWithBuildTool.js';
import type { BuildSystemKind } from '../core/workspace/model.js';
import { executionPolicy, runControls, withBuildRoot } from './buildExecution.js';

/** Resolving runs the build's configuration code, so it has a deadline like a build run. */
const RESOLVE_TIMEOUT_MS = 15 * 60_000;

/** The arguments of build_dependencies and build_why that ask for, and steer, the resolved graph. */
export const resolveArguments = {
  resolve: optionalBoolean(
    false,
    'Run the build tool to resolve the graph (refused unless build execution is allowed).',
  ),
  network: optionalBoolean(
    false,
    'With resolve: let the build tool download what it misses (default: offline).',
  ),
  use_wrapper: optionalBoolean(
    false,
    "With resolve: use the build's gradlew / mvnw (refused unless the server was started with --allow-build-wrapper).",
  ),
};

export interface ResolvedRow {
  module: string;
  configuration: string;
  coordinates: string;
  requested: string[];
  selected?: string;
  reason: string;
  conflict: boolean;
  direct: boolean;
  /** The shortest path from the module to it (`key:version`, `key:requested -> selected`). */
  path: string[];
  failure?: string;
}

export async function resolveFor(
  path: string,
  args: {
    system?: BuildSystemKind | undefined;
    configuration?: string | undefined;
    network?: boolean | undefined;
    use_wrapper?: boolean | undefined;
  },
  ctx: ToolContext,
  tool: string,
): Promise<Resolution> {
  const policy = executionPolicy(ctx, tool);
  return withBuildRoot(path, args.system, ctx, (root, system) =>
    resolveWithBuildTool({
      root,
      system,
      ...(args.configuration === undefined ? {} : { configurations: [args.configuration] }),
      ...runControls(ctx, policy, args, RESOLVE_TIMEOUT_MS),
    }),
  );
}

/** One row per (module, configuration, dependency), filtered as the call asked. */
export function resolvedRows(
  resolution: Resolution,
  filter: { module?: string | undefined; dependency?: string | undefined; only_conflicts?: boolean },
): ResolvedRow[] {
  const rows: ResolvedRow[] = [];
  for (const graph of resolution.graphs) {
    if (filter.module !== undefined && graph.module !== filter.module) continue;
    for (const dependency of resolvedDependencies(graph)) {
      if (filter.dependency !== undefined && !dependency.dependency.includes(filter.dependency)) continue;
      if (filter.only_conflicts === true && !dependency.conflict) continue;
      rows.push({
        module: graph.module,
        configuration: graph.configuration,
        coordinates: dependency.dependency,
        requested: dependency.requested,
        ...(dependency.selected === undefined ? {} : { selected: dependency.selected }),
        reason: dependency.reason,
        conflict: dependency.conflict,
        direct: dependency.direct,
        path: pathsTo(graph, dependency.dependency, 1)[0] ?? [],
        ...(dependency.failure === undefined ? {} : { failure: dependency.failure }),
      });
    }
  }
  return rows;
}
