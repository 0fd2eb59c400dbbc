// Reads the events taskEventsInitScript wrote into task outcomes.
import type { TaskOutcome, TaskResult } from '../runResult.js';

interface TaskEvent {
  event: 'task';
  path: string;
  outcome: string;
  failed: boolean;
  actions: number;
  ms: number | null;
  failure: string[];
}

const OUTCOMES: Record<string, TaskOutcome> = {
  EXECUTED: 'executed',
  SUCCESS: 'executed',
  UP_TO_DATE: 'UP-TO-DATE',
  'UP-TO-DATE': 'UP-TO-DATE',
  FROM_CACHE: 'FROM-CACHE',
  'FROM-CACHE': 'FROM-CACHE',
  NO_SOURCE: 'NO-SOURCE',
  'NO-SOURCE': 'NO-SOURCE',
  SKIPPED: 'SKIPPED',
  FAILED: 'FAILED',
};

export interface GradleEvents {
  /** Every task of the graph, in execution order (absent when the build failed before the graph was ready). */
  graph?: string[];
  tasks: TaskResult[];
}

/** One event a line; a line that does not parse (a build killed mid-write) is skipped. */
export function readTaskEvents(text: string): GradleEvents {
  const events: GradleEvents = { tasks: [] };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let event: { event?: string } & Record<string, unknown>;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (event.event === 'graph' && Array.isArray(event.tasks)) events.graph = event.tasks.map(String);
    if (event.event === 'task') events.tasks.push(taskResult(event as unknown as TaskEvent));
  }
  return events;
}

function taskResult(event: TaskEvent): TaskResult {
  const outcome: TaskOutcome = event.failed ? 'FAILED' : (OUTCOMES[event.outcome] ?? 'executed');
  const message = event.failure.filter((line) => line.trim() !== '');
  return {
    task: event.path,
    outcome,
    // Gradle's "N actionable tasks" counts tasks with actions that were not skipped for having no source.
    actionable: event.actions > 0 && outcome !== 'NO-SOURCE' && outcome !== 'SKIPPED',
    ...(event.ms === null ? {} : { duration_ms: Math.round(event.ms * 10) / 10 }),
    ...(message.length === 0 ? {} : { failure: message.join(': ') }),
  };
}
