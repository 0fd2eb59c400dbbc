// adopt's own files pass its own verify: on every repository of the precision corpus (symlinked agent docs and
// plugin layouts among them), the agent docs, Cursor's, Copilot's and Gemini CLI's files and the assets adopt
// writes add no finding and remove the root AGENTS.md/CLAUDE.md ones, and the AGENTS.md it writes never
// contradicts itself.
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckoutFiles } from '../files/checkoutFiles.js';
import type { Finding } from '../verify/finding.js';
import { verifyRepo } from '../verify/verifyRepo.js';
import type { Adoption } from './adoption.js';
import { detect } from './checkoutSteps.js';
import { checkGuard } from './guardCheck.js';
import { installAssetsStep, installGuardStep, writeAgentDocs } from './writeSteps.js';

const corpus = fileURLToPath(new URL('../../../test/fixtures/real/', import.meta.url));
const repositories = (await readdir(corpus)).filter((name) => name.includes('__')).sort();
const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map((dir) => rm(dir, { recursive: true, force: true })));
});

const key = (finding: Finding) => `${finding.rule} ${finding.file}`;
/** What adopt exists to fix at the root. */
const ROOT_DOC_RULES = new Set([
  'agents-md/missing',
  'agents-md/section',
  'claude-md/missing',
  'claude-md/refers-to-agents',
]);

/**
 * adopt_repo's own detect, agent-docs, guard and assets steps on a checkout (the git steps around them are
 * not needed); returns what the guard it installed would complain about.
 */
async function adoptInPlace(root: string, name: string): Promise<string[]> {
  const files = (await CheckoutFiles.at(root)) as CheckoutFiles;
  // Only the fields these three steps read; the rest of an Adoption belongs to the git and publish steps.
  const run = {
    target: { kind: 'path', path: path.join(root, '..', name), shownAs: name },
    options: { useClaude: false, assets: true, agents: ['cursor', 'copilot', 'gemini', 'codex'] },
    report: { notes: [] },
    redact: (text: string) => text,
    checkout: path.join(path.dirname(root), name),
    files,
    profile: undefined,
    assetFiles: [],
  } as unknown as Adoption;
  try {
    await detect(run);
    await writeAgentDocs(run);
    await installGuardStep(run);
    await installAssetsStep(run);
    return await checkGuard(files);
  } finally {
    await files.close();
  }
}

describe('adopt on the precision corpus', () => {
  it.each(repositories)(
    'writes agent docs and assets that verify_repo passes on %s',
    async (repository) => {
      const root = await mkdtemp(path.join(tmpdir(), 'adopt-real-'));
      created.push(root);
      await cp(path.join(corpus, repository), root, { recursive: true, verbatimSymlinks: true });
      const before = new Set((await verifyRepo(root)).findings.map(key));
      await adoptInPlace(root, repository.split('__')[1] ?? repository);
      const after = await verifyRepo(root);
      expect(after.findings.filter((finding) => !before.has(key(finding)))).toEqual([]);
      const rootFiles = new Set(['AGENTS.md', 'CLAUDE.md', '.claude/CLAUDE.md']);
      expect(
        after.findings.filter((finding) => ROOT_DOC_RULES.has(finding.rule) && rootFiles.has(finding.file)),
      ).toEqual([]);
      const agentsMd = await readFile(path.join(root, 'AGENTS.md'), 'utf8');
      // One file behind both names (a symlink) must not import itself.
      expect(agentsMd).not.toMatch(/^@AGENTS\.md$/m);
      if (/built with \w+/.test(agentsMd)) expect(agentsMd).not.toContain('No build tool was detected');
      // A whole repository per test: room for two busy cores.
    },
    60_000,
  );
});
