// Completions of the arguments that name something inside a build: module ids, configurations (Gradle
// configurations, Maven scopes, npm fields, Cargo tables) and task names of the build the `path` argument
// names. A build that cannot be read offers nothing.
import path from 'node:path';
import { type Completer, completeFrom, completePath, ToolError } from '@groundwork/mcp-common';
import { knownTasks } from '../core/run/knownTasks.js';
import type { Workspace } from '../core/workspace/model.js';
import { runLogs } from './buildExecution.js';
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

/** Tasks this server saw run in the build (its build_run and build_cache_explain runs), then those every build has. */
export const completeTask: Completer = completeFrom(async (request, ctx) => {
  const given = request.arguments.path;
  if (given === undefined || given === '') return [];
  try {
    let base: string;
    {
      await using opened = await ctx.allowedPaths.openDirectory(given, { signal: ctx.signal });
      base = opened.realPath;
    }
    return await withWorkspace(given, ctx, (workspace) => {
      const roots = new Set(workspace.systems.map((system) => path.join(base, system.root)));
      const seen = runLogs
        .summaries()
        .flatMap(({ summary, root }) =>
          root !== undefined && roots.has(root) ? summary.tasks.map((task) => task.task) : [],
        );
      return knownTasks(workspace.systems, seen);
    });
  } catch (error) {
    if (error instanceof ToolError) return [];
    throw error;
  }
});
