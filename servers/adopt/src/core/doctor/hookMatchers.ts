// Hook matchers that do not do what they say. From the hooks reference: `*`, `""` or no matcher match every
// occurrence; a matcher of only letters, digits, `_` and `|` is an exact name or a list of names; anything else
// is a JavaScript regular expression. Some events take no matcher at all and fire on every occurrence (a matcher
// there is ignored). Unknown event names and missing hook scripts are settings/hook-event and
// settings/hook-script, reported with the rest of the file's checks.
import { didYouMean, type FindingSink, shown } from '../verify/finding.js';
import { isObject, jsonLines } from '../verify/jsonLocator.js';
import { KNOWN_TOOLS } from '../verify/settingsRules.js';

/** Events the hooks reference lists as taking no matcher. */
const NO_MATCHER_EVENTS = new Set([
  'UserPromptSubmit',
  'Stop',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'WorktreeCreate',
  'WorktreeRemove',
  'CwdChanged',
]);
/** Events whose matcher is a tool name. */
const TOOL_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
]);
const EXACT = /^[A-Za-z0-9_|]+$/;

export function checkHookMatchers(
  file: string,
  text: string,
  hooks: Record<string, unknown>,
  sink: FindingSink,
): void {
  const lineOf = jsonLines(text);
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, index) => {
      if (!isObject(group) || typeof group.matcher !== 'string') return;
      const matcher = group.matcher;
      if (matcher === '' || matcher === '*') return;
      const quoted = shown(matcher);
      const line = lineOf(['hooks', event, index, 'matcher']);
      if (NO_MATCHER_EVENTS.has(event)) {
        sink.report(
          'doctor/hook-matcher-ignored',
          file,
          `${event} takes no matcher: '${quoted}' is ignored and the hook runs on every ${event}.`,
          { line, fix: `Remove the matcher, or filter inside the hook command.` },
        );
        return;
      }
      if (EXACT.test(matcher)) {
        if (!TOOL_EVENTS.has(event)) return;
        for (const name of matcher.split('|')) {
          if (name === '' || KNOWN_TOOLS.has(name) || name.startsWith('mcp__')) continue;
          // An unknown name far from every known tool may be a newer tool: only likely typos are reported.
          const suggestion = didYouMean(name, KNOWN_TOOLS);
          if (suggestion === '') continue;
          sink.report(
            'doctor/hook-matcher-never',
            file,
            `The ${event} matcher '${quoted}' names '${shown(name)}', which is no tool${suggestion}; matchers are case-sensitive and exact.`,
            { line, fix: 'Use the tool names exactly as Claude Code spells them, e.g. `Edit|Write`.' },
          );
        }
        return;
      }
      // Compiled to learn whether it is valid, never run on anything (so its backtracking costs nothing).
      try {
        new RegExp(matcher);
      } catch (error) {
        // V8's message repeats the whole source before the reason: `Invalid regular expression: /…/: reason`.
        const { message } = error as Error;
        sink.report(
          'doctor/hook-matcher-never',
          file,
          `The ${event} matcher '${quoted}' is not a valid regular expression (${message.slice(message.lastIndexOf(': ') + 2)}); it matches nothing.`,
          { line, fix: 'Fix the regular expression, e.g. `Edit|Write` or `mcp__github__.*`.' },
        );
      }
    });
  }
}
