// Optional assets: an .mcp.json wiring the groundwork servers, a .claude/settings.json with a session-start
// hook, and the .gitignore line that keeps personal settings out. Existing entries are kept.
import type { CheckoutFiles } from '../files/checkoutFiles.js';
import { type ProjectProfile, parseJsonObject } from './detectProject.js';

const GROUNDWORK_SERVERS = ['data', 'context', 'test-reports', 'adopt', 'build'] as const;
const HOOK_PATH = '.claude/hooks/session-start.sh';
const HOOK_COMMAND = `"$CLAUDE_PROJECT_DIR"/${HOOK_PATH}`;
const LOCAL_SETTINGS = '.claude/settings.local.json';

const SESSION_START_HOOK = `#!/bin/sh
# Written by groundwork-adopt: reminds the agent where its instructions are at the start of a session.
cd "$CLAUDE_PROJECT_DIR" 2>/dev/null || exit 0
if [ -s AGENTS.md ]; then echo "This repository's conventions are in AGENTS.md (imported by CLAUDE.md)."; fi
git status --short --branch 2>/dev/null | head -n 20
exit 0
`;

export async function installAssets(files: CheckoutFiles, profile: ProjectProfile): Promise<string[]> {
  const changed: string[] = [];
  const update = async (relative: string, change: (current: string | undefined) => string, mode = 0o644) => {
    const current = await files.read(relative);
    const next = change(current);
    if (next === current) return;
    await files.write(relative, next, mode);
    changed.push(relative);
  };
  await update('.mcp.json', (current) => withGroundworkServers(current));
  await update('.claude/settings.json', (current) => withSessionStartHook(current, profile));
  await update(HOOK_PATH, (current) => current ?? SESSION_START_HOOK, 0o755);
  await update('.gitignore', (current) => {
    if (current?.split(/\r?\n/).some((line) => line.trim() === LOCAL_SETTINGS)) return current;
    const base = current ?? '';
    return `${base}${base === '' || base.endsWith('\n') ? '' : '\n'}${LOCAL_SETTINGS}\n`;
  });
  return changed;
}

function withGroundworkServers(current: string | undefined): string {
  const config =
    current === undefined
      ? {}
      : (parseJsonObject('.mcp.json', current) as { mcpServers?: Record<string, unknown> });
  const servers = { ...(config.mcpServers ?? {}) };
  for (const name of GROUNDWORK_SERVERS) {
    const key = `groundwork-${name}`;
    servers[key] ??= { command: 'npx', args: ['-y', `@groundwork/${name}`, '--allowed-dir', '.'] };
  }
  const next = `${JSON.stringify({ ...config, mcpServers: servers }, null, 2)}\n`;
  return current !== undefined && sameJson(current, next) ? current : next;
}

function withSessionStartHook(current: string | undefined, profile: ProjectProfile): string {
  type Settings = { permissions?: { allow?: string[] }; hooks?: Record<string, unknown[]> };
  const settings =
    current === undefined
      ? ({} as Settings)
      : (parseJsonObject('.claude/settings.json', current) as Settings);
  const allow = new Set(settings.permissions?.allow ?? []);
  for (const command of [profile.testCommand, profile.buildCommand, profile.lintCommand]) {
    if (command !== undefined) allow.add(`Bash(${command}:*)`);
  }
  const hooks = { ...(settings.hooks ?? {}) };
  const sessionStart = [...(hooks.SessionStart ?? [])];
  if (!JSON.stringify(sessionStart).includes(HOOK_PATH)) {
    sessionStart.push({ hooks: [{ type: 'command', command: HOOK_COMMAND }] });
  }
  hooks.SessionStart = sessionStart;
  const next = `${JSON.stringify({ ...settings, permissions: { ...settings.permissions, allow: [...allow] }, hooks }, null, 2)}\n`;
  return current !== undefined && sameJson(current, next) ? current : next;
}

function sameJson(a: string, b: string): boolean {
  return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
}
