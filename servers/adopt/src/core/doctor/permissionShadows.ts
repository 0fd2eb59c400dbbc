// Permission rules that can never take effect, across every settings file Claude Code merges. Claude Code checks
// deny rules first, then ask, then allow, and the first match decides; the lists merge across files. So a rule
// covered by one in an earlier list never applies, and one covered by another in its own list adds nothing.
// "Covered" is claimed only where it is certain from the documented rule syntax: a rule without a specifier
// covers every use of its tool, an MCP server rule every tool of that server, a Bash prefix (`npm run *`,
// the legacy `npm:*`) every command that starts with it, and a path rule ending in `/**` every path below.
import type { FindingSink } from '../verify/finding.js';
import { type JsonPath, jsonLines } from '../verify/jsonLocator.js';
import { PERMISSION } from '../verify/settingsRules.js';

const LISTS = ['deny', 'ask', 'allow'] as const;
type ListName = (typeof LISTS)[number];

export interface PermissionSource {
  file: string;
  text: string;
  permissions: Record<string, unknown>;
}

interface Rule {
  list: ListName;
  entry: string;
  file: string;
  line: number;
  tool: string;
  spec: string | undefined;
}

/** Tools whose specifier is a gitignore-style path. */
const PATH_TOOLS = new Set(['Read', 'Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Glob', 'Grep']);
const EVERYTHING = new Set(['*', '**', ':*']);

export function checkPermissionShadows(sources: readonly PermissionSource[], sink: FindingSink): void {
  const rules: Rule[] = [];
  for (const { file, text, permissions } of sources) {
    const lineOf = jsonLines(text);
    for (const list of LISTS) {
      const entries = permissions[list];
      if (!Array.isArray(entries)) continue;
      entries.forEach((entry, index) => {
        if (typeof entry !== 'string') return;
        const match = PERMISSION.exec(entry.trim());
        if (match === null) return; // settings/permission-rule reports it
        const path: JsonPath = ['permissions', list, index];
        rules.push({
          list,
          entry: entry.trim(),
          file,
          line: lineOf(path),
          tool: match.groups?.tool ?? '',
          spec: match.groups?.spec?.trim(),
        });
      });
    }
  }
  const where = (rule: Rule) => `'${rule.entry}' in \`${rule.list}\` (${rule.file})`;
  rules.forEach((rule, index) => {
    const earlier = LISTS.slice(0, LISTS.indexOf(rule.list));
    // A deny and an allow of the very same rule in one file is settings/allow-deny-conflict's finding.
    const shadow = rules.find(
      (other) =>
        earlier.includes(other.list) &&
        covers(other, rule) &&
        !(
          other.file === rule.file &&
          other.entry === rule.entry &&
          other.list === 'deny' &&
          rule.list === 'allow'
        ),
    );
    if (shadow !== undefined) {
      const effect =
        shadow.list === 'deny'
          ? 'it is always denied'
          : 'Claude Code asks every time, so it is never allowed without a prompt';
      sink.report(
        'doctor/permission-shadowed',
        rule.file,
        `${where(rule)} never applies: ${where(shadow)} is checked first and matches everything it does; ${effect}.`,
        { line: rule.line, fix: `Remove '${rule.entry}', or narrow '${shadow.entry}'.` },
      );
      return;
    }
    const twin = rules.findIndex(
      (other, otherIndex) => otherIndex !== index && other.list === rule.list && other.entry === rule.entry,
    );
    if (twin !== -1 && twin < index) {
      const first = rules[twin] as Rule;
      sink.report(
        'doctor/permission-redundant',
        rule.file,
        first.file === rule.file
          ? `${where(rule)} is listed twice in this file.`
          : `${where(rule)} is also in ${first.file}; the lists merge, so one copy is enough.`,
        {
          line: rule.line,
          fix:
            first.file === rule.file
              ? 'Remove the second copy.'
              : 'Keep it in the shared settings.json if everyone needs it, otherwise only in settings.local.json.',
        },
      );
      return;
    }
    const wider = rules.find(
      (other) => other.list === rule.list && other.entry !== rule.entry && covers(other, rule),
    );
    if (wider !== undefined) {
      sink.report(
        'doctor/permission-redundant',
        rule.file,
        `${where(rule)} adds nothing: ${where(wider)} already matches everything it does.`,
        { line: rule.line, fix: `Remove '${rule.entry}'.` },
      );
    }
  });
}

/** Whether every use `narrow` matches is certainly matched by `wide`. */
export function covers(wide: Pick<Rule, 'tool' | 'spec'>, narrow: Pick<Rule, 'tool' | 'spec'>): boolean {
  if (wide.tool.startsWith('mcp__')) {
    const server = /^mcp__([^_]+(?:_[^_]+)*?)(?:__\*)?$/.exec(wide.tool)?.[1];
    if (wide.spec !== undefined) return false;
    if (
      server !== undefined &&
      (narrow.tool === `mcp__${server}` || narrow.tool.startsWith(`mcp__${server}__`))
    )
      return true;
    return wide.tool === narrow.tool && narrow.spec === undefined;
  }
  if (wide.tool !== narrow.tool) return false;
  const everything = (spec: string | undefined) =>
    spec === undefined || (wide.tool === 'Bash' && EVERYTHING.has(spec));
  if (everything(wide.spec)) return true;
  if (narrow.spec === undefined || everything(narrow.spec)) return false;
  if (wide.spec === narrow.spec) return true;
  const wideSpec = wide.spec as string;
  const narrowSpec = narrow.spec;
  if (wide.tool === 'Bash') {
    // Every command `narrow` matches starts with its text before the first wildcard.
    const legacy = /^(.*):\*$/.exec(narrowSpec);
    const narrowStart = legacy !== null ? (legacy[1] as string) : (narrowSpec.split('*')[0] as string);
    const narrowExact = legacy === null && !narrowSpec.includes('*');
    const wideLegacy = /^(.*):\*$/.exec(wideSpec);
    if (wideLegacy !== null) {
      const prefix = wideLegacy[1] as string;
      return (narrowExact && narrowSpec === prefix) || narrowStart.startsWith(`${prefix} `);
    }
    const star = wideSpec.indexOf('*');
    if (star !== wideSpec.length - 1) return false;
    return narrowStart.startsWith(wideSpec.slice(0, -1));
  }
  if (PATH_TOOLS.has(wide.tool) && wideSpec.endsWith('/**')) {
    const prefix = wideSpec.slice(0, -2);
    if (/[*?[\]]/.test(prefix)) return false;
    return (narrowSpec.split(/[*?[]/)[0] as string).startsWith(prefix);
  }
  return false;
}
