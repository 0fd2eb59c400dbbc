// The project's effective Claude Code settings: the settings files a repository holds, merged as Claude Code's
// settings page says — a file of higher precedence wins key by key (local project over shared project over a
// plugin's defaults), objects merge key by key, and array-valued settings (permission rules, hooks, …) merge
// across files, concatenated with duplicates removed. Managed, command-line and user settings live outside the
// repository and are not read: they may still override what this says.
import { isObject } from '../verify/jsonLocator.js';

/** A settings source inside the repository, highest precedence first in SCOPES. */
export type SettingsScope = 'local' | 'shared' | 'plugin';

export const SCOPES: readonly SettingsScope[] = ['local', 'shared', 'plugin'];

export const SCOPE_NAMES: Record<SettingsScope, string> = {
  local: 'local project settings',
  shared: 'shared project settings',
  plugin: 'an enabled plugin’s settings.json',
};

/** One file's settings, as read (files that could not be read or that Claude Code skips carry none). */
export interface SettingsLayer {
  scope: SettingsScope;
  file: string;
  settings: Record<string, unknown>;
}

export interface EffectiveSetting {
  /** Dotted path of the key, e.g. `permissions.defaultMode` or `env.NODE_ENV`. */
  key: string;
  value: unknown;
  /** The file the value comes from; for a merged array, every file that contributes, highest first. */
  files: string[];
  why: string;
  /** What files of lower precedence set the key to (their values do not apply). */
  overridden: Array<{ file: string; value: unknown }>;
}

/** Every leaf key of the merged settings (a leaf is a scalar or an array), in the order first seen. */
export function effectiveSettings(layers: readonly SettingsLayer[]): EffectiveSetting[] {
  const ordered = [...layers].sort((a, b) => SCOPES.indexOf(a.scope) - SCOPES.indexOf(b.scope));
  const byKey = new Map<string, Array<{ layer: SettingsLayer; value: unknown }>>();
  for (const layer of ordered) {
    for (const [key, value] of leaves(layer.settings, '')) {
      const entries = byKey.get(key) ?? [];
      entries.push({ layer, value });
      byKey.set(key, entries);
    }
  }
  return [...byKey].map(([key, entries]) => resolve(key, entries));
}

function resolve(key: string, entries: Array<{ layer: SettingsLayer; value: unknown }>): EffectiveSetting {
  const [winner, ...lower] = entries as [(typeof entries)[number], ...typeof entries];
  const where = (layer: SettingsLayer) => `${SCOPE_NAMES[layer.scope]} (${layer.file})`;
  if (entries.every((entry) => Array.isArray(entry.value))) {
    const seen = new Set<string>();
    const merged: unknown[] = [];
    for (const { value } of entries) {
      for (const item of value as unknown[]) {
        const identity = JSON.stringify(item);
        if (seen.has(identity)) continue;
        seen.add(identity);
        merged.push(item);
      }
    }
    return {
      key,
      value: merged,
      files: entries.map((entry) => entry.layer.file),
      why:
        entries.length === 1
          ? `set only in ${where(winner.layer)}`
          : `an array: merged across ${entries.map((entry) => entry.layer.file).join(' and ')} (concatenated, duplicates removed)`,
      overridden: [],
    };
  }
  return {
    key,
    value: winner.value,
    files: [winner.layer.file],
    why:
      lower.length === 0
        ? `set only in ${where(winner.layer)}`
        : `${where(winner.layer)} take precedence over ${lower.map((entry) => where(entry.layer)).join(' and ')}`,
    overridden: lower.map((entry) => ({ file: entry.layer.file, value: entry.value })),
  };
}

/** [dotted key, value] of every scalar or array below `value`; an empty object is a leaf of its own. */
function* leaves(value: Record<string, unknown>, prefix: string): Generator<[string, unknown]> {
  for (const [name, child] of Object.entries(value)) {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    if (isObject(child) && Object.keys(child).length > 0) yield* leaves(child, key);
    else yield [key, child];
  }
}
