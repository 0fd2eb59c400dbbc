// What this server declares it can do: one builder for both eras (legacy: the initialize result; modern: the
// server/discover result), so a capability is added once and appears in both.
import { promptsOf } from '../prompts/promptCatalog.js';
import type { ServerApp } from '../server/serverApp.js';
import { SKILLS_CAPABILITY, SKILLS_EXTENSION } from '../skills/skillCatalog.js';
import { legacyTasksCapability } from '../tasks/legacyTasks.js';
import { TASKS_EXTENSION } from '../tasks/taskCalls.js';
import type { Era } from './eras.js';

export function capabilitiesOf(
  app: ServerApp,
  { era, stateless }: { era: Era; stateless: boolean },
): Record<string, unknown> {
  const legacy = era === 'legacy';
  const skills = app.skills === undefined ? {} : { [SKILLS_EXTENSION]: SKILLS_CAPABILITY };
  // Tasks are in the legacy core (`capabilities.tasks`) but an extension in 2026-07-28.
  const extensions = legacy ? skills : { [TASKS_EXTENSION]: {}, ...skills };
  return {
    // Nothing here ever changes while the server runs (2026-07-28 has no list-changed notifications).
    tools: legacy ? { listChanged: false } : {},
    resources: {},
    // Announced even when empty: an empty list answers clients that ask.
    prompts: legacy ? { listChanged: false } : {},
    ...(promptsOf(app).completable ? { completions: {} } : {}),
    // A level set by one client of a stateless server would apply to all; modern requests carry their own.
    ...(legacy && !stateless ? { logging: {} } : {}),
    ...(Object.keys(extensions).length > 0 ? { extensions } : {}),
    ...(legacy ? { tasks: legacyTasksCapability(stateless) } : {}),
  };
}
