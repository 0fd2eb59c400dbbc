// Completions of the arguments that name something inside a build: module ids and configurations (Gradle
// configurations, Maven scopes, npm fields, Cargo tables) of the build the `path` argument names. A build that
// cannot be read offers nothing.
import { type Completer, completeFrom, completePath, ToolError } from '@groundwork/mcp-common';
import type { Workspace } from '../core/workspace/model.js';
import { withWorkspace } from './buildRoot.js';

export const completeBuildPath: Completer = completePath({ kind: 'directory' });

function fromWorkspace(pick: (workspace: Workspace) => string[]): Completer {
  return completeFrom(async (request, ctx) => {
    const path = request.arguments.path;
    if (path === undefined || path === '') return [];
    try {
      return await withWorkspace(path, ctx, (workspace) => [...new Set(pick(workspace))].sort());
    } catch (error) {
      if (error instanceof ToolError) return [];
      throw error;
    }
  });
}

export const completeModule = fromWorkspace((workspace) =>
  workspace.systems.flatMap((system) => system.modules.map((module) => module.id)),
);

export const completeConfiguration = fromWorkspace((workspace) =>
  workspace.systems.flatMap((system) => system.dependencies.map((dependency) => dependency.configuration)),
);

export const completeDependency = fromWorkspace((workspace) =>
  workspace.systems.flatMap((system) => system.dependencies.map((dependency) => dependency.coordinates)),
);
