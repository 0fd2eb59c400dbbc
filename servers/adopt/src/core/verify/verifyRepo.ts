// verify_repo: runs every convention rule whose input exists in the repository and applies the repository's
// own rule settings. Read-only; files are read concurrently.

import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { MAX_FILE_BYTES } from '../files/checkoutFiles.js';
import { checkAgentsMd } from './agentsMdRules.js';
import { checkClaudeMd, findClaudeMd } from './claudeMdRules.js';
import { checkDefinitions, collectDefinitions } from './definitionRules.js';
import { type Finding, FindingSink, type VerifyReport } from './finding.js';
import { checkLocalLinks } from './linkRules.js';
import { parseMarkdown } from './markdownDocument.js';
import { checkMcpJson, MCP_JSON_FILE } from './mcpJsonRules.js';
import { type RefusedFile, RepoFiles } from './repoFiles.js';
import { checkSecrets } from './secretRules.js';
import { checkLocalSettingsIgnored, checkSettings, SETTINGS_FILE } from './settingsRules.js';
import { applyRuleSettings, loadVerifyConfig } from './verifyConfig.js';

export class NotARepositoryError extends Error {
  readonly code = 'NOT_A_DIRECTORY';
  constructor(given: string) {
    super(`'${given}' is not a directory; pass the root folder of a repository.`);
  }
}

/**
 * Checks the repository at `root`: an absolute directory, or one the caller already opened (the MCP tool opens
 * it through the allowed directories). `shownAs` is what error messages may call it.
 */
export async function verifyRepo(
  root: string | ConfinedDirectory,
  shownAs = typeof root === 'string' ? root : '.',
): Promise<VerifyReport> {
  const files = await RepoFiles.at(root);
  if (files === undefined) throw new NotARepositoryError(shownAs);
  try {
    return await checkRepository(files);
  } finally {
    await files.close();
  }
}

async function checkRepository(files: RepoFiles): Promise<VerifyReport> {
  const sink = new FindingSink();
  const [configResult, claudeMd, agentsText, definitions, settingsText, mcpText, claudeDir] =
    await Promise.all([
      loadVerifyConfig(files),
      findClaudeMd(files),
      files.read('AGENTS.md'),
      collectDefinitions(files),
      files.read(SETTINGS_FILE),
      files.read(MCP_JSON_FILE),
      files.kind('.claude'),
    ]);
  const { config } = configResult;
  const agentsDocument = agentsText === undefined ? undefined : parseMarkdown(agentsText);
  checkAgentsMd('AGENTS.md', agentsText, agentsDocument, sink);
  checkDefinitions(definitions, sink);
  if (mcpText !== undefined) checkMcpJson(mcpText, sink);
  const [loadedClaudeMd] = await Promise.all([
    checkClaudeMd(files, claudeMd, agentsText !== undefined, config.tokenBudget, sink),
    settingsText === undefined ? undefined : checkSettings(files, settingsText, sink),
    claudeDir === 'directory' ? checkLocalSettingsIgnored(files, sink) : undefined,
  ]);
  const markdown = [...loadedClaudeMd];
  if (
    agentsText !== undefined &&
    agentsDocument !== undefined &&
    !markdown.some((entry) => entry.file === 'AGENTS.md')
  ) {
    markdown.push({ file: 'AGENTS.md', text: agentsText, document: agentsDocument });
  }
  await checkLocalLinks(files, markdown, sink);
  const scanned: Array<{ file: string; text: string }> = [
    ...markdown,
    ...definitions,
    ...(settingsText === undefined ? [] : [{ file: SETTINGS_FILE, text: settingsText }]),
    ...(mcpText === undefined ? [] : [{ file: MCP_JSON_FILE, text: mcpText }]),
  ];
  for (const { file, text } of scanned) checkSecrets(file, text, sink);
  reportRefusedFiles(files, sink);
  const findings = applyRuleSettings([...configResult.findings, ...sink.findings], config).sort(byLocation);
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  return {
    passed: errors === 0,
    totals: {
      errors,
      warnings: findings.length - errors,
      files_checked: new Set(scanned.map((entry) => entry.file)).size,
    },
    findings,
  };
}

const REFUSAL_FIX: Record<RefusedFile['reason'], string> = {
  unsafe: 'Make it a regular file inside the repository (a symlink may point only inside it).',
  'too-large': `Keep agent docs and settings under ${MAX_FILE_BYTES} bytes.`,
  budget: 'Check fewer or smaller files, or run verify on a smaller folder.',
};

/** Files that were not read (symlinks out, FIFOs, devices, oversized files) are findings, never hangs. */
function reportRefusedFiles(files: RepoFiles, sink: FindingSink): void {
  for (const refused of files.refused) {
    sink.error(`files/${refused.reason}`, refused.file, refused.message, {
      fix: REFUSAL_FIX[refused.reason],
    });
  }
}

function byLocation(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if ((a.line ?? 0) !== (b.line ?? 0)) return (a.line ?? 0) - (b.line ?? 0);
  return a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0;
}
