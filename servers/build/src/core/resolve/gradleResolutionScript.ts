// An init script that adds a task to every project printing what Gradle resolved for its configurations:
// `configuration.incoming.resolutionResult` — each component with its selection reason, each edge with the
// version it requested and what it got — as one JSON object a line, into a file of ours. Works from Gradle 4.4.
import { groovyString } from '../run/gradle/groovyString.js';

export const RESOLVE_TASK = 'groundworkResolvedDependencies';

/** The configurations resolved when the call names none (those that exist in each project). */
export const DEFAULT_CONFIGURATIONS = [
  'compileClasspath',
  'runtimeClasspath',
  'testCompileClasspath',
  'testRuntimeClasspath',
];

export function resolutionInitScript(outputFile: string, configurations: readonly string[]): string {
  const wanted = `[${configurations.map(groovyString).join(', ')}]`;
  return `import groovy.json.JsonOutput
import org.gradle.api.artifacts.component.ProjectComponentIdentifier
import org.gradle.api.artifacts.component.ModuleComponentSelector
import org.gradle.api.artifacts.result.ResolvedDependencyResult
import org.gradle.api.artifacts.result.UnresolvedDependencyResult
def groundworkOut = new File(${groovyString(outputFile)})
groundworkOut.text = ''
def groundworkWanted = ${wanted}
// A failure's message and its causes' (Gradle's "Could not resolve x." says why only in its cause: "No cached
// version of x available for offline mode.").
def groundworkMessages = { Throwable t ->
  def out = []
  while (t != null && out.size() < 4) { if (t.message != null && !out.contains(t.message)) out << t.message; t = t.cause }
  out.join(' ')
}
allprojects { p ->
  p.tasks.create(${groovyString(RESOLVE_TASK)}) {
    doLast {
      p.configurations.findAll { c -> groundworkWanted.contains(c.name) && (!c.hasProperty('canBeResolved') || c.canBeResolved) }.each { c ->
        def line
        try {
          def result = c.incoming.resolutionResult
          def keyOf = { id -> id instanceof ProjectComponentIdentifier ? id.projectPath : (id.hasProperty('group') ? "\${id.group}:\${id.module}" : id.displayName) }
          def components = result.allComponents.collect { comp -> [key: keyOf(comp.id), version: comp.id instanceof ProjectComponentIdentifier ? null : comp.moduleVersion?.version, project: comp.id instanceof ProjectComponentIdentifier, reason: comp.selectionReason.description] }
          def edges = result.allDependencies.collect { d ->
            def requested = d.requested instanceof ModuleComponentSelector ? [key: "\${d.requested.group}:\${d.requested.module}", version: d.requested.version] : [key: d.requested.hasProperty('projectPath') ? d.requested.projectPath : d.requested.displayName, version: null]
            [from: keyOf(d.from.id), to: d instanceof ResolvedDependencyResult ? keyOf(d.selected.id) : requested.key, requestedKey: requested.key, requested: requested.version, failure: d instanceof UnresolvedDependencyResult ? groundworkMessages(d.failure) : null]
          }
          line = [project: p.path, configuration: c.name, root: keyOf(result.root.id), components: components, edges: edges]
        } catch (Exception e) {
          line = [project: p.path, configuration: c.name, error: groundworkMessages(e)]
        }
        synchronized (groundworkOut) { groundworkOut.append(JsonOutput.toJson(line) + '\\n', 'UTF-8') }
      }
    }
  }
}
`;
}
