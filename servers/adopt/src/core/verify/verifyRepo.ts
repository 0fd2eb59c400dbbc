// verify_repo: discovers every convention layout in the repository, runs the rules whose input exists and
// applies the repository's own rule settings. Read-only.

import path from 'node:path';
import { DomainError } from '@groundwork/mcp-common/domainError';
import type { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { AGENT_NAMES } from '../adopt/agentPointers.js';
import { sessionLoads } from '../cost/sessionLoads.js';
import { checkSessionCosts } from '../cost/sessionRules.js';
import { MAX_FILE_BYTES } from '../files/checkoutFiles.js';
import { checkAgentFiles } from './agents/agentFileRules.js';
import { checkAgentsMd } from './agentsMdRules.js';
import { checkInstructionFiles } from './claudeMdRules.js';
import { checkDefinitions, type Definition, reportEmptySkillFolders } from './definitionRules.js';
import { type Finding, FindingSink, reportOf, type VerifyReport } from './finding.js';
import { checkLocalLinks } from './linkRules.js';
import { parseMarkdown } from './markdownDocument.js';
import { checkMcpJson } from './mcpJsonRules.js';
import {
  checkMarketplace,
  checkPluginHooks,
  checkPluginManifest,
  marketplaceSources,
} from './pluginRules.js';
import { type ReadBudget, type RefusedFile, RepoFiles } from './repoFiles.js';
import { discoverLayout, kindFromLayout } from './repoLayout.js';
import { checkSecrets } from './secretRules.js';
import { checkLocalSettingsCommitted, checkSettings } from './settingsRules.js';
import { applyRuleSettings, loadVerifyConfig } from './verifyConfig.js';

/** `argument` names the tool argument that carried the path, when there is one. */
export class NotARepositoryError extends DomainError {
  constructor(given: string, argument?: string) {
    const problem = `'${given}' is not a directory; pass the root folder of a repository.`;
    super('NOT_A_DIRECTORY', argument === undefined ? problem : `Invalid argument '${argument}': ${problem}`);
  }
}

/**
 * Checks the repository at `root`: an absolute directory, or one the caller already opened (the MCP tool opens
 * it through the allowed directories). `shownAs` is what error messages may call it.
 */
export async function verifyRepo(
  root: string | ConfinedDirectory,
  shownAs = typeof root === 'string' ? root : '.',
  budget?: ReadBudget,
): Promise<VerifyReport> {
  const files = await RepoFiles.at(root, budget);
  if (files === undefined) throw new NotARepositoryError(shownAs);
  try {
    return await checkRepository(files);
  } finally {
    await files.close();
  }
}

async function checkRepository(files: RepoFiles): Promise<VerifyReport> {
  const sink = new FindingSink();
  const read = async (file: string) => ({ file, text: (await files.read(file)) ?? '' });
  const layout = await discoverLayout(files, async (marketplace) =>
    marketplaceSources(marketplace, (await read(marketplace)).text),
  );
  const kindOf = kindFromLayout(layout, files);
  const [
    configResult,
    definitionTexts,
    settings,
    localSettings,
    mcpJson,
    manifests,
    pluginHooks,
    marketplaces,
  ] = await Promise.all([
    loadVerifyConfig(files),
    Promise.all(
      layout.definitions.map(async (definition) => ({
        ...definition,
        text: (await read(definition.file)).text,
      })),
    ),
    Promise.all(layout.settings.map(read)),
    Promise.all(layout.localSettings.map(read)),
    Promise.all(layout.mcpJson.map(read)),
    Promise.all(layout.pluginManifests.map(read)),
    Promise.all(layout.pluginHooks.map(read)),
    Promise.all(layout.marketplaces.map(read)),
  ]);
  const { config } = configResult;
  const definitions: Definition[] = definitionTexts;
  checkDefinitions(definitions, sink);
  reportEmptySkillFolders(layout.emptySkillFolders, sink);
  for (const { file, text } of mcpJson) checkMcpJson(file, text, sink, file !== '.mcp.json');
  for (const { file, text } of manifests) checkPluginManifest(file, text, layout.directories, sink);
  for (const { file, text } of marketplaces) checkMarketplace(file, text, layout.directories, sink);
  const projectRootOf = (file: string) => {
    const dir = path.posix.dirname(path.posix.dirname(file));
    return dir === '.' ? '' : dir;
  };
  const [markdown] = await Promise.all([
    checkInstructionFiles(files, layout.instructionFiles, config.tokenBudget, sink, kindOf),
    ...[...settings, ...localSettings].map(({ file, text }) =>
      checkSettings(files, file, text, projectRootOf(file), sink),
    ),
    ...pluginHooks.map(({ file, text }) => checkPluginHooks(files, file, text, projectRootOf(file), sink)),
    checkLocalSettingsCommitted(files, layout.localSettings, sink),
  ]);
  const rootAgents = markdown.find((entry) => entry.file === 'AGENTS.md');
  if (rootAgents !== undefined)
    checkAgentsMd(rootAgents.file, rootAgents.document ?? parseMarkdown(rootAgents.text), sink);
  await checkLocalLinks(files, markdown, sink, kindOf);
  const agentTexts = await checkAgentFiles(files, layout, kindOf, markdown, sink);
  await checkSessionCosts(await sessionLoads(files, layout, kindOf, AGENT_NAMES), sink, {
    claudeMdReported: sink.findings.some((finding) => finding.rule === 'claude-md/context-window'),
  });
  const scanned: Array<{ file: string; text: string }> = [
    ...markdown,
    ...agentTexts,
    ...definitions,
    ...settings,
    ...localSettings,
    ...mcpJson,
    ...manifests,
    ...pluginHooks,
    ...marketplaces,
  ];
  for (const { file, text } of scanned) checkSecrets(file, text, sink);
  reportRefusedFiles(files, sink);
  const findings = applyRuleSettings([...configResult.findings, ...sink.findings], config).sort(byLocation);
  return reportOf(findings, new Set(scanned.map((entry) => entry.file)).size);
}

const REFUSAL_FIX: Record<RefusedFile['reason'], string> = {
  unsafe: 'Make it a regular file inside the repository (a symlink may point only inside it).',
  'too-large': `Keep agent docs and settings under ${MAX_FILE_BYTES} bytes.`,
  budget: 'Check fewer or smaller files, or run verify on a smaller folder.',
};

/** Files that were not read (symlinks out, FIFOs, devices, oversized files) are findings, never hangs. */
export function reportRefusedFiles(files: RepoFiles, sink: FindingSink): void {
  for (const refused of files.refused) {
    sink.report(`files/${refused.reason}`, refused.file, refused.message, {
      fix: REFUSAL_FIX[refused.reason],
    });
  }
}

export function byLocation(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  return a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0;
}
