// An init script that has Gradle itself say what each task did: its outcome (TaskStateInternal's outcome, the
// value the console prints), whether it has actions (what "N actionable tasks" counts), its duration measured
// around its execution, and its failure. One JSON object a line, into a file of ours (not the console, which
// the build's own code also prints to). Works from Gradle 4.4 (TaskExecutionListener, TaskState.skipMessage).
import { groovyString } from './groovyString.js';

export function taskEventsInitScript(eventsFile: string): string {
  return `import groovy.json.JsonOutput
import java.util.concurrent.ConcurrentHashMap
def groundworkEvents = new File(${groovyString(eventsFile)})
groundworkEvents.text = ''
def groundworkStarted = new ConcurrentHashMap()
def groundworkWrite = { Map event -> synchronized (groundworkEvents) { groundworkEvents.append(JsonOutput.toJson(event) + '\\n', 'UTF-8') } }
gradle.taskGraph.whenReady { graph -> groundworkWrite([event: 'graph', tasks: graph.allTasks.collect { it.path }]) }
gradle.addListener(new TaskExecutionListener() {
  void beforeExecute(Task task) { groundworkStarted.put(task.path, System.nanoTime()) }
  void afterExecute(Task task, TaskState state) {
    Long started = groundworkStarted.remove(task.path)
    String outcome = state.hasProperty('outcome') && state.outcome != null ? state.outcome.toString() : (state.skipMessage ?: (state.failure != null ? 'FAILED' : 'EXECUTED'))
    Throwable failure = state.failure
    List causes = []
    while (failure != null && causes.size() < 5) { if (failure.message != null) causes << failure.message; failure = failure.cause == failure ? null : failure.cause }
    groundworkWrite([event: 'task', path: task.path, outcome: outcome, failed: state.failure != null, actions: task.actions.size(), ms: started == null ? null : (System.nanoTime() - started) / 1000000d, failure: causes])
  }
})
`;
}
