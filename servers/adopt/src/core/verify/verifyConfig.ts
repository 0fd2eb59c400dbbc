// The repository's own say over verify: `.groundwork/adopt.json` switches rules off or changes their severity.
import { type Finding, FindingSink, type Severity, withoutBom } from './finding.js';
import type { RepoFiles } from './repoFiles.js';

const CONFIG_FILE = '.groundwork/adopt.json';
const DEFAULT_TOKEN_BUDGET = 10_000;

export type RuleSetting = Severity | 'off';

export interface VerifyConfig {
  /** Rule id (`skill/name`) or rule family (`skill/*`) → what to do with its findings. */
  rules: ReadonlyMap<string, RuleSetting>;
  /** Estimated tokens CLAUDE.md may take with its imports (characters / 4). */
  tokenBudget: number;
}

const SETTINGS: readonly RuleSetting[] = ['off', 'note', 'warning', 'error'];

/** Reads the config file; a malformed one is reported as findings and the defaults are used. */
export async function loadVerifyConfig(
  files: RepoFiles,
): Promise<{ config: VerifyConfig; findings: Finding[] }> {
  const defaults: VerifyConfig = { rules: new Map(), tokenBudget: DEFAULT_TOKEN_BUDGET };
  const stored = await files.read(CONFIG_FILE);
  const text = stored === undefined ? undefined : withoutBom(stored);
  const sink = new FindingSink();
  if (text === undefined) return { config: defaults, findings: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    sink.report('config/invalid', CONFIG_FILE, `Not valid JSON: ${(error as Error).message}`);
    return { config: defaults, findings: sink.findings };
  }
  if (!isObject(raw)) {
    sink.report('config/invalid', CONFIG_FILE, 'Expected a JSON object with "rules" and/or "token_budget".');
    return { config: defaults, findings: sink.findings };
  }
  const rules = new Map<string, RuleSetting>();
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'rules' && isObject(value)) {
      for (const [rule, setting] of Object.entries(value)) {
        if (SETTINGS.includes(setting as RuleSetting)) rules.set(rule, setting as RuleSetting);
        else
          sink.report('config/invalid', CONFIG_FILE, `Rule '${rule}' is set to ${JSON.stringify(setting)}.`, {
            fix: 'Use "off", "note", "warning" or "error".',
          });
      }
    } else if (key === 'token_budget' && Number.isInteger(value) && (value as number) > 0) {
      defaults.tokenBudget = value as number;
    } else {
      sink.report('config/invalid', CONFIG_FILE, `Unknown or malformed key '${key}'.`, {
        fix: 'Allowed: "rules" (an object of rule id → "off" | "note" | "warning" | "error") and "token_budget" (a positive integer).',
      });
    }
  }
  return { config: { rules, tokenBudget: defaults.tokenBudget }, findings: sink.findings };
}

/** Applies the config: drops switched-off findings and rewrites severities. */
export function applyRuleSettings(findings: readonly Finding[], config: VerifyConfig): Finding[] {
  const applied: Finding[] = [];
  for (const finding of findings) {
    const family = `${finding.rule.split('/')[0]}/*`;
    const setting = config.rules.get(finding.rule) ?? config.rules.get(family);
    if (setting === 'off') continue;
    applied.push(setting === undefined ? finding : { ...finding, severity: setting });
  }
  return applied;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
