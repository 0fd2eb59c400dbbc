// The steps that change the checkout: agent docs, the guard, the optional assets, and the commit after
// each. Every file goes through CheckoutFiles, so a committed symlink out of the checkout is an error
// naming the path inside the repository, and CLAUDE.md → AGENTS.md is written once, as AGENTS.md.

import path from 'node:path';
import { contextFileNames } from '../verify/agents/geminiRules.js';
import { parseJsonc } from '../verify/agents/jsoncDocument.js';
import { ADOPT_TRAILER, type Adoption, checkoutFiles, git, gitStatus, note, profileOf } from './adoption.js';
import { writeAgentDocs as composeAgentDocs } from './agentDocs.js';
import { AGENT_POINTER_FILES, agentPointerChanges } from './agentPointers.js';
import { installAssets } from './assets.js';
import type { ProjectProfile } from './detectProject.js';
import { installGuard } from './guard.js';

/** What the claude CLI needs to log in, passed to it alone. */
const CLAUDE_CREDENTIALS = ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'ANTHROPIC_BASE_URL'];

export const AGENT_DOC_FILES = ['AGENTS.md', 'CLAUDE.md', '.claude/CLAUDE.md', ...AGENT_POINTER_FILES];

export async function writeAgentDocs(run: Adoption): Promise<void> {
  const files = checkoutFiles(run);
  if (run.options.useClaude && (await run.runner.available('claude'))) {
    // Project settings (hooks, MCP servers) are the repository's code: claude loads only the user's.
    await run.runner
      .inheriting(CLAUDE_CREDENTIALS)
      .run(
        'claude',
        [
          '-p',
          claudePrompt(profileOf(run)),
          '--permission-mode',
          'acceptEdits',
          '--setting-sources',
          'user',
          '--strict-mcp-config',
        ],
        { what: 'claude' },
      );
    note(run, 'the claude CLI wrote the agent docs; the templates then completed anything it left out');
  }
  const [agentsMd, rootClaude, nestedClaude] = await Promise.all(
    AGENT_DOC_FILES.map((file) => files.read(file)),
  );
  // An existing .claude/CLAUDE.md is completed in place; it imports AGENTS.md from one level up.
  const nested = rootClaude === undefined && nestedClaude !== undefined;
  const claudeFile = nested ? '.claude/CLAUDE.md' : 'CLAUDE.md';
  const linked = await files.sameFile(claudeFile, 'AGENTS.md');
  const claudeMd = nested ? nestedClaude : rootClaude;
  const docs = composeAgentDocs(
    projectName(run),
    profileOf(run),
    {
      ...(agentsMd === undefined ? {} : { agentsMd }),
      ...(claudeMd === undefined || linked ? {} : { claudeMd }),
    },
    nested ? '@../AGENTS.md' : '@AGENTS.md',
  );
  await files.write('AGENTS.md', docs.agentsMd);
  if (linked) note(run, `${claudeFile} is a symlink to AGENTS.md; AGENTS.md serves as both`);
  else await files.write(claudeFile, docs.claudeMd);
  await writeAgentPointers(run);
}

/** The named agents' own files, each leading to AGENTS.md (agentPointers.ts); what was done is noted. */
async function writeAgentPointers(run: Adoption): Promise<void> {
  const files = checkoutFiles(run);
  const existing = new Map<string, string>();
  for (const file of AGENT_POINTER_FILES) {
    // A pointer that is AGENTS.md itself (a symlink) already leads there.
    if (await files.sameFile(file, 'AGENTS.md')) continue;
    const text = await files.read(file);
    if (text !== undefined) existing.set(file, text);
  }
  const settings = await files.read('.gemini/settings.json');
  const geminiNames = contextFileNames(
    settings === undefined ? undefined : parseJsonc(settings, { trailingCommas: false }),
  );
  const changes = agentPointerChanges(
    projectName(run),
    run.options.agents ?? [],
    existing,
    geminiNames.includes('AGENTS.md'),
  );
  for (const change of changes) {
    if (change.text !== undefined) await files.write(change.file, change.text);
    note(
      run,
      change.action === 'created'
        ? `${change.agent}: wrote ${change.file}, which leads to AGENTS.md`
        : change.action === 'completed'
          ? `${change.agent}: ${change.file} neither imported nor mentioned AGENTS.md; a line pointing to it was appended (nothing else changed)`
          : `${change.agent}: ${change.file} already exists and was left as it is`,
    );
  }
  if (run.options.agents?.includes('codex'))
    note(run, 'codex: Codex reads AGENTS.md itself; nothing to write');
}

export async function installGuardStep(run: Adoption): Promise<void> {
  run.guard = await installGuard(checkoutFiles(run), profileOf(run));
  note(run, `guard: ${run.guard.wiring}`);
}

export async function installAssetsStep(run: Adoption): Promise<void> {
  run.assetFiles = await installAssets(checkoutFiles(run), profileOf(run));
}

/** Commits `files` if any of them changed; a step with nothing to commit is a no-op. */
export async function commitFiles(run: Adoption, files: readonly string[], message: string): Promise<void> {
  const kinds = await Promise.all(files.map((file) => checkoutFiles(run).kind(file)));
  const existing = files.filter((_, index) => kinds[index] !== undefined);
  if (existing.length === 0) return;
  await git(run, ['add', '--all', '--', ...existing]);
  if ((await gitStatus(run, ['diff', '--cached', '--quiet'])) === 0) return;
  await git(run, [...run.identity, 'commit', '--quiet', '--no-verify', '-m', message, '-m', ADOPT_TRAILER]);
}

function projectName(run: Adoption): string {
  const source = run.target.kind === 'path' ? run.checkout : (run.remote?.clean ?? '');
  return path.basename(source.replace(/\.git\/?$/, '').replace(/\/+$/, '')) || 'Project';
}

function claudePrompt(profile: ProjectProfile): string {
  return [
    'Write or complete AGENTS.md (sections: Overview, Layout, Build and test, Conventions, Pull requests) and a CLAUDE.md that starts with a title and imports it with the line @AGENTS.md.',
    `Detected: ${profile.languages.join(', ')}, build tool ${profile.buildTool}${profile.testCommand === undefined ? '' : `, tests run with ${profile.testCommand}`}.`,
    'Keep what the existing files say; only add what is missing. Use only commands that work in this repository.',
  ].join(' ');
}
