// adopt's own files pass its own verify: on every repository of the precision corpus (symlinked agent docs and
// plugin layouts among them), the agent docs and assets adopt writes add no finding and remove the root
// AGENTS.md/CLAUDE.md ones, and the AGENTS.md it writes never contradicts itself.
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../verify/finding.js';
import { verifyRepo } from '../verify/verifyRepo.js';
import { completeAgentDocFiles } from './agentDocs.js';
import { installAssets } from './assets.js';
import { detectProject } from './detectProject.js';

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

describe('adopt on the precision corpus', () => {
  it.each(repositories)('writes agent docs and assets that verify_repo passes on %s', async (repository) => {
    const root = await mkdtemp(path.join(tmpdir(), 'adopt-real-'));
    created.push(root);
    await cp(path.join(corpus, repository), root, { recursive: true, verbatimSymlinks: true });
    const before = new Set((await verifyRepo(root)).findings.map(key));
    const profile = await detectProject(root);
    await completeAgentDocFiles(root, repository.split('__')[1] ?? repository, profile);
    await installAssets(root, profile);
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
  });
});
