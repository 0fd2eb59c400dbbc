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
  shape: Shape;
}

/**
 * What a rule matches, worked out once: every use of its tool (`all`); every use of one MCP server's tools
 * (`server`); for Bash, every command starting with `start` (and, as the legacy `x:*` form also matches, the
 * bare `exact`); for a path tool, every path starting with `start` (a `/**` rule); or only what equals the spec.
 */
interface Shape {
  /** Rules can only cover rules of the same bucket: the tool, or the MCP server. */
  bucket: string;
  /** The same rule written again covers itself. */
  identity: string;
  wide: { kind: 'all' } | { kind: 'prefix'; start: string; exact?: string } | { kind: 'literal' };
  /** Every use it matches starts with this (undefined: not known, e.g. a whole tool). */
  narrowStart: string | undefined;
  /** It matches exactly this one use. */
  narrowExact: string | undefined;
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
        const tool = match.groups?.tool ?? '';
        const spec = match.groups?.spec?.trim();
        rules.push({
          list,
          entry: entry.trim(),
          file,
          line: lineOf(path),
          tool,
          spec,
          shape: shapeOf(tool, spec),
        });
      });
    }
  }
  const where = (rule: Rule) => `'${rule.entry}' in \`${rule.list}\` (${rule.file})`;
  const buckets = new Map<string, Rule[]>();
  for (const rule of rules) {
    const bucket = buckets.get(rule.shape.bucket) ?? [];
    bucket.push(rule);
    buckets.set(rule.shape.bucket, bucket);
  }
  const firstOf = new Map<string, number>();
  rules.forEach((rule, index) => {
    if (!firstOf.has(`${rule.list} ${rule.entry}`)) firstOf.set(`${rule.list} ${rule.entry}`, index);
  });
  rules.forEach((rule, index) => {
    const earlier = LISTS.slice(0, LISTS.indexOf(rule.list));
    const candidates = buckets.get(rule.shape.bucket) ?? [];
    // A deny and an allow of the very same rule in one file is settings/allow-deny-conflict's finding.
    const shadow = candidates.find(
      (other) =>
        earlier.includes(other.list) &&
        shapeCovers(other.shape, rule.shape) &&
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
    const twin = firstOf.get(`${rule.list} ${rule.entry}`) as number;
    if (twin < index) {
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
    const wider = candidates.find(
      (other) =>
        other.list === rule.list && other.entry !== rule.entry && shapeCovers(other.shape, rule.shape),
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
export function covers(
  wide: { tool: string; spec: string | undefined },
  narrow: { tool: string; spec: string | undefined },
): boolean {
  return shapeCovers(shapeOf(wide.tool, wide.spec), shapeOf(narrow.tool, narrow.spec));
}

function shapeCovers(wide: Shape, narrow: Shape): boolean {
  if (wide.bucket !== narrow.bucket) return false;
  if (wide.identity === narrow.identity) return true;
  switch (wide.wide.kind) {
    case 'all':
      return true;
    case 'prefix': {
      const { start, exact } = wide.wide;
      return narrow.narrowStart?.startsWith(start) || (exact !== undefined && narrow.narrowExact === exact);
    }
    case 'literal':
      return narrow.narrowExact !== undefined && narrow.narrowExact === wide.narrowExact;
  }
}

function shapeOf(tool: string, spec: string | undefined): Shape {
  return { identity: `${tool}(${spec ?? ''})`, ...shapeBody(tool, spec) };
}

function shapeBody(tool: string, spec: string | undefined): Omit<Shape, 'identity'> {
  if (tool.startsWith('mcp__')) {
    // `mcp__server` and `mcp__server__*` cover every tool of the server; `mcp__server__tool` only itself.
    const whole = /^(mcp__[^_]+(?:_[^_]+)*?)(?:__\*)?$/.exec(tool)?.[1];
    const server = whole ?? /^(mcp__[^_]+(?:_[^_]+)*?)__/.exec(tool)?.[1] ?? tool;
    if (spec !== undefined)
      return {
        bucket: server,
        wide: { kind: 'literal' },
        narrowStart: undefined,
        narrowExact: `${tool}(${spec})`,
      };
    return whole !== undefined
      ? { bucket: server, wide: { kind: 'all' }, narrowStart: undefined, narrowExact: undefined }
      : { bucket: server, wide: { kind: 'literal' }, narrowStart: undefined, narrowExact: tool };
  }
  const bucket = tool;
  if (spec === undefined || (tool === 'Bash' && EVERYTHING.has(spec)))
    return { bucket, wide: { kind: 'all' }, narrowStart: undefined, narrowExact: undefined };
  const literal = { bucket, wide: { kind: 'literal' as const }, narrowStart: undefined, narrowExact: spec };
  if (tool === 'Bash') {
    const legacy = /^(.*):\*$/.exec(spec)?.[1];
    if (legacy !== undefined)
      // `npm:*` matches `npm` and every command after `npm `.
      return {
        bucket,
        wide: { kind: 'prefix', start: `${legacy} `, exact: legacy },
        narrowStart: legacy,
        narrowExact: undefined,
      };
    const star = spec.indexOf('*');
    if (star === -1) return { ...literal, narrowStart: spec };
    return {
      bucket,
      wide: star === spec.length - 1 ? { kind: 'prefix', start: spec.slice(0, -1) } : { kind: 'literal' },
      narrowStart: spec.slice(0, star),
      narrowExact: undefined,
    };
  }
  if (PATH_TOOLS.has(tool)) {
    const wildcard = spec.search(/[*?[]/);
    const narrowStart = wildcard === -1 ? spec : spec.slice(0, wildcard);
    const prefix = spec.endsWith('/**') ? spec.slice(0, -2) : undefined;
    return {
      bucket,
      wide:
        prefix !== undefined && !/[*?[\]]/.test(prefix)
          ? { kind: 'prefix', start: prefix }
          : { kind: 'literal' },
      narrowStart,
      narrowExact: wildcard === -1 ? spec : undefined,
    };
  }
  return literal;
}
