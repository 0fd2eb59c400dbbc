// The explain-cache-miss workflow as a prompt: record a task's cache key, run it again, read what changed (the
// skill skills/explain-cache-miss says the same).
import { definePrompt } from '@groundwork/mcp-common';
import { completeBuildPath, completeTask } from './buildCompletions.js';
import { call } from './explainBuildPrompt.js';

export const explainCacheMissPrompt = definePrompt({
  definition: {
    name: 'explain-cache-miss',
    title: 'Explain why a Gradle task ran',
    description:
      'Finds out why a Gradle task ran instead of being UP-TO-DATE or FROM-CACHE — the input of its build cache key that changed, or that it runs on every build — with build_cache_explain (the server must allow build execution).',
    arguments: [
      {
        name: 'path',
        description: "The Gradle build's root folder, inside the server's allowed directories.",
        required: true,
        complete: completeBuildPath,
      },
      {
        name: 'task',
        description: 'The task that ran when it should not have (e.g. :app:compileJava).',
        required: true,
        complete: completeTask,
      },
    ],
  },
  async render(args) {
    const path = args.path as string;
    const task = (args.task as string).trim();
    const lines = [
      `Find out why the Gradle task ${JSON.stringify(task)} of the build under ${JSON.stringify(path)} ran instead of being UP-TO-DATE or FROM-CACHE, with the groundwork-build tools; do not run gradle yourself or read its --info output by hand.`,
      '',
      `1. Call ${call('build_cache_explain', { path, tasks: [task] })}. If \`compared_with\` is empty this was the first explained run: its cache keys are now recorded, so call it again unchanged (or after the change you suspect).`,
      `2. In the second answer, read the task's \`why\`, \`changed\` (the parts of its build cache key that differ: an \`input\` such as source or classpath, an \`implementation\` part when the build script or a plugin changed) and \`files\`. A task in \`runs_every_build\` runs whatever changes: say which outputs or upToDateWhen it lacks.`,
      `3. To check the build cache, call ${call('build_cache_explain', { path, tasks: ['clean', task] })}: the task should be FROM-CACHE; if it ran with an unchanged key, read \`caching_disabled\`.`,
      '',
      'Answer with: the input that made the task run (file or property, before and after), whether that change was intended, and what to change in the build so it stops happening.',
    ];
    return [{ role: 'user', text: lines.join('\n') }];
  },
});
