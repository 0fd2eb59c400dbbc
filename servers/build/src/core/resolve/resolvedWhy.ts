// Why a module has a dependency at the version it has, from the graph the build tool resolved: every path to
// it, the rule that chose the version (Gradle's conflict resolution takes the highest version asked for, Maven
// the nearest declaration; a constraint, a force or a managed version overrides both), and the declaration
// that decided it, found in the build files, as the place to edit.
import { namesDependency } from '../dependencies/dependencyPaths.js';
import type { BuildSystemKind, DeclaredDependency, SourceLocation, Workspace } from '../workspace/model.js';
import { pathsTo, type ResolvedGraph, resolvedDependencies } from './resolvedGraph.js';

/** The rule behind a selected version, in one vocabulary across tools. */
export type SelectionRule =
  | 'highest version'
  | 'nearest declaration'
  | 'constraint'
  | 'forced'
  | 'managed'
  | 'selection rule'
  | 'minimal version selection'
  | 'requested'
  | 'unresolved';

export interface ResolvedWhy {
  module: string;
  configuration: string;
  coordinates: string;
  selected?: string;
  requested: string[];
  /** The tool's own words (`conflict resolution`, `nearest wins (conflict)`, …). */
  reason: string;
  rule: SelectionRule;
  /** Every path from the module to it (`key:version`, `key:requested -> selected`), shortest first. */
  paths: string[][];
  /** The path whose request is the version selected: the one that decided. */
  decidedBy?: string[];
  /** The build's declaration on that path (the dependency itself, or the library it arrives through). */
  declaration?: DeclaredDependency;
  /** Where to change the version. */
  edit?: SourceLocation;
  note: string;
}

export interface ResolvedWhyQuery {
  dependency: string;
  module?: string | undefined;
  /** Paths listed per dependency at most. */
  maxPaths: number;
}

export function ruleOf(reason: string, conflict: boolean): SelectionRule {
  if (/unresolved|fail/i.test(reason)) return 'unresolved';
  if (/forced|force/i.test(reason)) return 'forced';
  if (/constraint/i.test(reason)) return 'constraint';
  if (/dependencyManagement|managed/i.test(reason)) return 'managed';
  if (/nearest/i.test(reason)) return conflict ? 'nearest declaration' : 'requested';
  if (/conflict/i.test(reason)) return 'highest version';
  if (/rule|substitut/i.test(reason)) return 'selection rule';
  if (/\bmvs\b|minimal version/i.test(reason)) return 'minimal version selection';
  return 'requested';
}

export function resolvedWhy(
  workspace: Workspace,
  system: BuildSystemKind,
  graphs: readonly ResolvedGraph[],
  query: ResolvedWhyQuery,
): ResolvedWhy[] {
  // Every system of the kind: a Go module or a Maven reactor beside the resolved one may declare it.
  const models = workspace.systems.filter((candidate) => candidate.kind === system);
  const projects = new Set(models.flatMap((model) => model.modules.map((module) => module.id)));
  const declarations = models.flatMap((model) => model.dependencies);
  const answers: ResolvedWhy[] = [];
  for (const graph of graphs) {
    if (query.module !== undefined && graph.module !== query.module) continue;
    for (const dependency of resolvedDependencies(graph)) {
      if (!namesDependency(dependency.dependency, query.dependency)) continue;
      const paths = pathsTo(graph, dependency.dependency, query.maxPaths);
      const rule = ruleOf(dependency.reason, dependency.conflict);
      // The deciding request asked for the selected version itself (its last step shows no `->`).
      const decidedBy = paths.find((path) => !(path.at(-1) as string).includes(' -> '));
      const found =
        decidedBy === undefined
          ? undefined
          : declarationOn(decidedBy, graph, dependency.dependency, projects);
      const declaration =
        found === undefined
          ? undefined
          : declarations.find(
              (candidate) => candidate.module === found.module && candidate.coordinates === found.coordinates,
            );
      const edit = declaration === undefined ? undefined : (declaration.version.definedAt ?? declaration.at);
      answers.push({
        module: graph.module,
        configuration: graph.configuration,
        coordinates: dependency.dependency,
        ...(dependency.selected === undefined ? {} : { selected: dependency.selected }),
        requested: dependency.requested,
        reason: dependency.reason,
        rule,
        paths,
        ...(decidedBy === undefined ? {} : { decidedBy }),
        ...(declaration === undefined ? {} : { declaration }),
        ...(edit === undefined ? {} : { edit }),
        note: noteFor(rule, dependency.dependency, dependency.selected, found, declaration),
      });
    }
  }
  return answers;
}

/**
 * The declaration in the build that the deciding path starts from: the last project on it declares either the
 * dependency itself or the external library it arrives through.
 */
function declarationOn(
  path: string[],
  graph: ResolvedGraph,
  dependency: string,
  projects: ReadonlySet<string>,
): { module: string; coordinates: string } | undefined {
  const keys = path.map((step) => keyOf(step, graph));
  let owner: string | undefined;
  let declared: string | undefined;
  // The dependency itself (the last step) may be a module of the build too; it declares nothing here.
  for (const [index, key] of keys.slice(0, -1).entries()) {
    const project = index === 0 || graph.components.get(key)?.project === true || projects.has(key);
    if (project) {
      owner = index === 0 ? graph.module : key;
      declared = keys[index + 1];
    }
  }
  if (owner === undefined || declared === undefined) return undefined;
  return { module: owner, coordinates: declared === dependency ? dependency : declared };
}

/** The component key of a path step (`g:a:1.0`, `g:a:1.0 -> 2.0`, `:core`). */
function keyOf(step: string, graph: ResolvedGraph): string {
  if (graph.components.has(step)) return step;
  const label = step.split(' -> ')[0] as string;
  const colon = label.lastIndexOf(':');
  const key = colon === -1 ? label : label.slice(0, colon);
  return graph.components.has(key) ? key : label;
}

function noteFor(
  rule: SelectionRule,
  dependency: string,
  selected: string | undefined,
  found: { module: string; coordinates: string } | undefined,
  declaration: DeclaredDependency | undefined,
): string {
  const at = declaration === undefined ? '' : ` (${declaration.at.file}:${declaration.at.line})`;
  const decider =
    found === undefined
      ? ''
      : found.coordinates === dependency
        ? `${found.module}'s declaration of it${at}`
        : `${found.module}'s dependency on ${found.coordinates}${at}, which brings it`;
  const version = selected ?? 'no version';
  switch (rule) {
    case 'highest version':
      return `Conflict resolution took the highest version asked for, ${version}, requested by ${decider || 'a transitive dependency'}. To change it, edit that request, or force or constrain the version in the module that resolves it.`;
    case 'nearest declaration':
      return `The nearest declaration wins: ${version}, from ${decider || 'the shortest path'}; farther ones were omitted. To change it, edit that declaration, or declare the version directly (or in <dependencyManagement>) in the module.`;
    case 'constraint':
    case 'forced':
    case 'managed':
    case 'selection rule':
      return `${version} was set by a ${rule === 'managed' ? 'managed version (<dependencyManagement> or a BOM)' : rule}, overriding what the paths ask for${decider === '' ? '' : `; the request on the deciding path is ${decider}`}.`;
    case 'unresolved':
      return `The build tool could not resolve it${decider === '' ? '' : `; it is asked for by ${decider}`}.`;
    default:
      return `${version} is the only version asked for, by ${decider || 'a transitive dependency'}.`;
  }
}
