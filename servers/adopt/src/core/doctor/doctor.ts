// doctor: what Claude Code will make of a repository's configuration — its effective project settings (which file
// each value comes from and why it wins), permission rules that never apply, hooks that never fire or fire more
// than they say, and .mcp.json servers that cannot start as written. Read-only and static unless the caller
// allows running repository code: then each stdio server is started and asked for its tools.
import path from 'node:path';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { type Finding, FindingSink, reportOf } from '../verify/finding.js';
import { isObject } from '../verify/jsonLocator.js';
import { checkMcpJson } from '../verify/mcpJsonRules.js';
import { RepoFiles } from '../verify/repoFiles.js';
import { checkSettings } from '../verify/settingsRules.js';
import { applyRuleSettings, loadVerifyConfig } from '../verify/verifyConfig.js';
import { byLocation, NotARepositoryError, reportRefusedFiles } from '../verify/verifyRepo.js';
import {
  type EffectiveSetting,
  effectiveSettings,
  type SettingsLayer,
  type SettingsScope,
} from './effectiveSettings.js';
import { checkHookMatchers } from './hookMatchers.js';
import { checkMcpServers, type McpServer } from './mcpServers.js';
import { checkPermissionShadows } from './permissionShadows.js';
import { type StartOutcome, startServer } from './serverStart.js';

const SETTINGS_FILES: ReadonlyArray<{ scope: SettingsScope; file: string }> = [
  { scope: 'local', file: '.claude/settings.local.json' },
  { scope: 'shared', file: '.claude/settings.json' },
];
const MCP_JSON = '.mcp.json';
/** Servers started at once when starting is allowed. */
const STARTS_AT_ONCE = 4;

export interface SettingsSource {
  scope: SettingsScope;
  file: string;
  /** applied; absent; skipped (Claude Code skips the whole file: not JSON, or a value the schema rejects); unreadable. */
  status: 'applied' | 'absent' | 'skipped' | 'unreadable';
  note?: string;
}

export type ServerReport = McpServer & { start?: StartOutcome };

export interface DoctorReport {
  passed: boolean;
  totals: { errors: number; warnings: number; notes: number; files_checked: number };
  sources: SettingsSource[];
  settings: EffectiveSetting[];
  servers: ServerReport[];
  findings: Finding[];
}

export interface DoctorOptions {
  /** Start each stdio server and list its tools (runs repository code). */
  startServers?: { timeoutMs: number; signal?: AbortSignal };
  /** Where `${VAR}` expansions and the started servers' safe variables come from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** Precedence as Claude Code's settings page gives it, for the sources nobody can read from a repository. */
export const OUTSIDE_SOURCES =
  'Managed settings, command-line settings (--settings) and user settings (~/.claude/settings.json) are not in the ' +
  'repository and were not read: managed and command-line settings override the project files, user settings are ' +
  'overridden by them (precedence: managed > command line > local project > shared project > user; arrays merge across all).';

export async function doctor(
  root: string | ConfinedDirectory,
  shownAs = typeof root === 'string' ? root : '.',
  options: DoctorOptions = {},
): Promise<DoctorReport> {
  const files = await RepoFiles.at(root);
  if (files === undefined) throw new NotARepositoryError(shownAs);
  try {
    return await examine(files, options);
  } finally {
    await files.close();
  }
}

async function examine(files: RepoFiles, options: DoctorOptions): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const sink = new FindingSink();
  const [configResult, mcpText, ...settingsTexts] = await Promise.all([
    loadVerifyConfig(files),
    files.read(MCP_JSON),
    ...SETTINGS_FILES.map(({ file }) => files.read(file)),
  ]);
  const sources: SettingsSource[] = [];
  const layers: Array<SettingsLayer & { text: string }> = [];
  await Promise.all(
    SETTINGS_FILES.map(async ({ scope, file }, index) => {
      const text = settingsTexts[index];
      const refused = files.refused.find((entry) => entry.file === file);
      if (text === undefined) {
        sources[index] =
          refused === undefined
            ? { scope, file, status: 'absent' }
            : { scope, file, status: 'unreadable', note: refused.message };
        return;
      }
      const own = new FindingSink();
      await checkSettings(files, file, text, '', own);
      sink.findings.push(...own.findings);
      const fatal = own.findings.find(
        (finding) => finding.rule === 'settings/json' || finding.rule === 'settings/schema',
      );
      if (fatal !== undefined) {
        sources[index] = {
          scope,
          file,
          status: 'skipped',
          note: `Claude Code skips this file: ${fatal.message}`,
        };
        return;
      }
      sources[index] = { scope, file, status: 'applied' };
      layers.push({
        scope,
        file,
        text,
        settings: JSON.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>,
      });
    }),
  );
  const plugins = await pluginLayers(files, effectiveSettings(layers));
  sources.push(...plugins.sources);
  const settings = effectiveSettings([...layers, ...plugins.layers]);
  checkPermissionShadows(
    layers.flatMap(({ file, text, settings: values }) =>
      isObject(values.permissions) ? [{ file, text, permissions: values.permissions }] : [],
    ),
    sink,
  );
  for (const { file, text, settings: values } of layers)
    if (isObject(values.hooks)) checkHookMatchers(file, text, values.hooks, sink);
  let servers: ServerReport[] = [];
  if (mcpText !== undefined) {
    checkMcpJson(MCP_JSON, mcpText, sink);
    const disabled = settings.find((entry) => entry.key === 'disabledMcpjsonServers')?.value;
    servers = await checkMcpServers(
      MCP_JSON,
      mcpText,
      {
        files,
        env,
        root: files.root,
        disabled: new Set(Array.isArray(disabled) ? disabled.map(String) : []),
      },
      sink,
    );
  }
  if (options.startServers !== undefined) {
    const start = options.startServers;
    await inBatches(servers, STARTS_AT_ONCE, async (server) => {
      if (server.transport !== 'stdio' || server.disabled || server.problems.length > 0) return;
      server.start = await startServer(server, {
        root: files.root,
        timeoutMs: start.timeoutMs,
        env,
        ...(start.signal === undefined ? {} : { signal: start.signal }),
      });
      if (server.start.status === 'failed') {
        sink.report(
          'doctor/mcp-start-failed',
          server.file,
          `Server '${server.name}' ${server.start.reason}.`,
          {
            line: server.line,
            fix: 'Run the command yourself from the project root and read what it prints; it must speak MCP on stdout and nothing else.',
          },
        );
      }
    });
  }
  reportRefusedFiles(files, sink);
  const findings = applyRuleSettings([...configResult.findings, ...sink.findings], configResult.config).sort(
    byLocation,
  );
  const filesChecked =
    sources.filter((source) => source.status === 'applied' || source.status === 'skipped').length +
    (mcpText === undefined ? 0 : 1);
  return { ...reportOf(findings, filesChecked), sources, settings, servers };
}

/** What a plugin's settings.json may set (the plugins reference: "only the agent key is supported"). */
const PLUGIN_KEYS = ['agent'];
const MARKETPLACE = '.claude-plugin/marketplace.json';

/**
 * The settings.json of each plugin the project settings enable that the repository's own marketplace holds
 * (`enabledPlugins: { "name@marketplace": true }`): defaults below every settings file.
 */
async function pluginLayers(
  files: RepoFiles,
  project: readonly EffectiveSetting[],
): Promise<{ sources: SettingsSource[]; layers: SettingsLayer[] }> {
  const enabled = project.flatMap((entry) =>
    entry.key.startsWith('enabledPlugins.') && entry.value === true
      ? [entry.key.slice('enabledPlugins.'.length)]
      : [],
  );
  const result: { sources: SettingsSource[]; layers: SettingsLayer[] } = { sources: [], layers: [] };
  if (enabled.length === 0) return result;
  let marketplace: unknown;
  try {
    marketplace = JSON.parse((await files.read(MARKETPLACE)) ?? 'null');
  } catch {
    return result; // marketplace/manifest is verify's finding
  }
  if (!isObject(marketplace) || typeof marketplace.name !== 'string' || !Array.isArray(marketplace.plugins))
    return result;
  const base =
    isObject(marketplace.metadata) && typeof marketplace.metadata.pluginRoot === 'string'
      ? marketplace.metadata.pluginRoot
      : '';
  for (const id of enabled) {
    const at = id.lastIndexOf('@');
    if (at <= 0 || id.slice(at + 1) !== marketplace.name) continue;
    const entry = marketplace.plugins.find((plugin) => isObject(plugin) && plugin.name === id.slice(0, at));
    if (!isObject(entry) || typeof entry.source !== 'string') continue;
    const folder = files.resolveFrom(
      MARKETPLACE.replace('.claude-plugin/', ''),
      path.posix.join(base, entry.source),
    );
    if (folder === undefined) continue;
    const file = folder === '' ? 'settings.json' : `${folder}/settings.json`;
    const text = await files.read(file);
    const refused = files.refused.find((refusal) => refusal.file === file);
    if (text === undefined) {
      if (refused !== undefined)
        result.sources.push({ scope: 'plugin', file, status: 'unreadable', note: refused.message });
      continue;
    }
    let settings: unknown;
    try {
      settings = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (error) {
      result.sources.push({
        scope: 'plugin',
        file,
        status: 'skipped',
        note: `Not valid JSON: ${(error as Error).message}`,
      });
      continue;
    }
    if (!isObject(settings)) continue;
    const ignored = Object.keys(settings).filter((key) => !PLUGIN_KEYS.includes(key));
    result.sources.push({
      scope: 'plugin',
      file,
      status: 'applied',
      ...(ignored.length === 0
        ? {}
        : {
            note: `Only ${PLUGIN_KEYS.join(', ')} applies from a plugin's settings.json; ignored: ${ignored.slice(0, 20).join(', ')}.`,
          }),
    });
    result.layers.push({
      scope: 'plugin',
      file,
      settings: Object.fromEntries(Object.entries(settings).filter(([key]) => PLUGIN_KEYS.includes(key))),
    });
  }
  return result;
}

async function inBatches<T>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  for (let start = 0; start < items.length; start += size)
    await Promise.all(items.slice(start, start + size).map(work));
}
