import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeRepo } from '../../testing/buildToolRepos.js';
import { writeFixtureRepo } from '../../testing/fixtureRepo.js';
import { CheckoutFiles } from '../files/checkoutFiles.js';
import { verifyRepo } from '../verify/verifyRepo.js';
import { writeAgentDocs } from './agentDocs.js';
import { installAssets as installIn } from './assets.js';
import { detectProject as detectIn } from './detectProject.js';

const filesAt = async (root: string) => (await CheckoutFiles.at(root)) as CheckoutFiles;
const detectProject = async (root: string) => detectIn(await filesAt(root));
const installAssets = async (root: string, profile: Awaited<ReturnType<typeof detectIn>>) =>
  installIn(await filesAt(root), profile);

describe('installAssets', () => {
  it('adds the groundwork servers, keeping the servers already configured', async () => {
    const root = await writeFixtureRepo({
      ...nodeRepo,
      '.mcp.json': '{ "mcpServers": { "mine": { "command": "my-server" } } }\n',
    });
    await installAssets(root, await detectProject(root));
    const servers = JSON.parse(await readFile(path.join(root, '.mcp.json'), 'utf8')).mcpServers as Record<
      string,
      unknown
    >;
    expect(Object.keys(servers)).toEqual([
      'mine',
      'groundwork-data',
      'groundwork-context',
      'groundwork-test-reports',
      'groundwork-adopt',
      'groundwork-build',
    ]);
  });

  it('writes settings, hook and .gitignore that verify_repo accepts, and changes nothing the second time', async () => {
    const root = await writeFixtureRepo(nodeRepo);
    const profile = await detectProject(root);
    const docs = writeAgentDocs('demo', profile, {});
    await writeFile(path.join(root, 'AGENTS.md'), docs.agentsMd);
    await writeFile(path.join(root, 'CLAUDE.md'), docs.claudeMd);
    expect(await installAssets(root, profile)).toEqual([
      '.mcp.json',
      '.claude/settings.json',
      '.claude/hooks/session-start.sh',
      '.gitignore',
    ]);
    const settings = JSON.parse(await readFile(path.join(root, '.claude/settings.json'), 'utf8'));
    expect(settings.permissions.allow).toEqual(['Bash(npm test:*)', 'Bash(npm run build:*)']);
    expect((await verifyRepo(root)).findings).toEqual([]);
    expect(await installAssets(root, profile)).toEqual([]);
  });
});
