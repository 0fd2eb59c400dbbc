// build_dependencies with `resolve: true`: the resolved graph from the build tool (core/resolve).
import type { ToolContext } from '@groundwork/mcp-common';
import { BuildError } from '../core/buildError.js';
import { type ResolvedDependency, resolveDependencies } from '../core/resolve/resolvedDependencies.js';
import type { Workspace } from '../core/workspace/model.js';

export async function resolvedFor(
  workspace: Workspace,
  args: { system?: string | undefined; module?: string | undefined; only_conflicts: boolean },
  ctx: ToolContext,
): Promise<ResolvedDependency[]> {
  const systems = workspace.systems.filter(
    (system) =>
      (args.system === undefined || system.kind === args.system) &&
      (args.module === undefined || system.modules.some((module) => module.id === args.module)),
  );
  const system = systems[0];
  if (system === undefined) {
    throw new BuildError(
      'MODULE_NOT_FOUND',
      'No build system matches system/module; call build_workspace for the ids.',
    );
  }
  return resolveDependencies({
    workspace,
    system,
    module: args.module,
    onlyConflicts: args.only_conflicts,
    signal: ctx.signal,
  });
}
