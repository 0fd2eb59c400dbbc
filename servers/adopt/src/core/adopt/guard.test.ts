import { spawnSync } from 'node:child_process';
import { readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeRepo } from '../../testing/buildToolRepos.js';
import { conventionalRepo, skillFile } from '../../testing/conventionalRepo.js';
import { type FixtureFiles, writeFixtureRepo } from '../../testing/fixtureRepo.js';
import { CheckoutFiles } from '../files/checkoutFiles.js';
import { detectProject as detectIn } from './detectProject.js';
import { installGuard as installIn } from './guard.js';
import { checkGuard } from './guardCheck.js';
import { GUARD_SCRIPT, GUARD_SCRIPT_PATH } from './guardScript.js';

const filesAt = async (root: string) => (await CheckoutFiles.at(root)) as CheckoutFiles;
const detectProject = async (root: string) => detectIn(await filesAt(root));
const installGuard = async (root: string, profile: Awaited<ReturnType<typeof detectIn>>) =>
  installIn(await filesAt(root), profile);

async function runGuard(files: FixtureFiles) {
  const root = await writeFixtureRepo({
    ...files,
    [GUARD_SCRIPT_PATH]: { content: GUARD_SCRIPT, mode: 0o755 },
  });
  const result = spawnSync('sh', [GUARD_SCRIPT_PATH], { cwd: root, encoding: 'utf8' });
  // The server's own evaluation (guardCheck.ts) must reach the script's verdict, complaint for complaint.
  const script = result.stderr
    .split('\n')
    .filter((line) => line.startsWith('check-agent-docs: '))
    .map((line) => line.slice('check-agent-docs: '.length));
  expect((await checkGuard(await filesAt(root))).sort()).toEqual(script.sort());
  return { code: result.status, stderr: result.stderr };
}

describe('the guard script', () => {
  it('passes a repository that follows the conventions', async () => {
    expect((await runGuard(conventionalRepo())).code).toBe(0);
  });

  it('fails when AGENTS.md goes missing', async () => {
    const { code, stderr } = await runGuard({ ...conventionalRepo(), 'AGENTS.md': null });
    expect(code).toBe(1);
    expect(stderr).toContain('AGENTS.md is missing or empty');
  });

  it('fails when CLAUDE.md stops referring to AGENTS.md', async () => {
    const { stderr } = await runGuard({ ...conventionalRepo(), 'CLAUDE.md': '# Demo\n' });
    expect(stderr).toContain('CLAUDE.md does not refer to AGENTS.md');
  });

  it('fails for a skill without front matter, a wrong name or no description', async () => {
    const { code, stderr } = await runGuard({
      ...conventionalRepo(),
      '.claude/skills/plain/SKILL.md': '# Plain\n',
      '.claude/skills/renamed/SKILL.md': skillFile('other-name'),
      '.claude/skills/silent/SKILL.md': '---\nname: silent\n---\n',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('.claude/skills/plain/SKILL.md has no front matter');
    expect(stderr).toContain('.claude/skills/renamed/SKILL.md must be named renamed');
    expect(stderr).toContain('.claude/skills/silent/SKILL.md has no description');
  });

  it('passes skills Claude Code loads: no name (the folder is the default), a description on indented lines, CRLF, a BOM', async () => {
    const { code, stderr } = await runGuard({
      ...conventionalRepo(),
      '.claude/skills/unnamed/SKILL.md': '---\ndescription: Runs the review.\n---\n',
      '.claude/skills/long/SKILL.md':
        '---\nname: long\ndescription:\n  Produce a digest.\n  Use when asked.\n---\n',
      '.claude/skills/windows/SKILL.md': '---\r\nname: windows\r\ndescription: Edited on Windows.\r\n---\r\n',
      '.claude/skills/marked/SKILL.md': `\uFEFF${skillFile('marked')}`,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('takes a CLAUDE.md that is a symlink to AGENTS.md as referring to it', async () => {
    const root = await writeFixtureRepo({
      ...conventionalRepo(),
      [GUARD_SCRIPT_PATH]: { content: GUARD_SCRIPT, mode: 0o755 },
    });
    await rm(path.join(root, 'CLAUDE.md'));
    await symlink('AGENTS.md', path.join(root, 'CLAUDE.md'));
    expect(spawnSync('sh', [GUARD_SCRIPT_PATH], { cwd: root }).status).toBe(0);
    expect(await checkGuard(await filesAt(root))).toEqual([]);
  });

  it('fails when .mcp.json is not valid JSON', async () => {
    const { stderr } = await runGuard({ ...conventionalRepo(), '.mcp.json': '{ nope' });
    expect(stderr).toContain('.mcp.json is not valid JSON');
  });
});

describe('installGuard', () => {
  it('runs the check first in the test script of a pnpm project, keeping the other scripts', async () => {
    const root = await writeFixtureRepo({
      ...nodeRepo,
      'package-lock.json': null,
      'pnpm-lock.yaml': 'lockfileVersion: 9.0\n',
    });
    const guard = await installGuard(root, await detectProject(root));
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts).toEqual({
      build: 'tsc',
      test: 'pnpm run check:agent-docs && node --test',
      'check:agent-docs': 'sh scripts/check-agent-docs.sh',
    });
    expect(guard.run).toEqual({ command: 'pnpm', args: ['run', 'check:agent-docs'] });
  });

  it('changes nothing the second time', async () => {
    const root = await writeFixtureRepo(nodeRepo);
    const profile = await detectProject(root);
    expect((await installGuard(root, profile)).changed).toEqual([
      'scripts/check-agent-docs.sh',
      'package.json',
    ]);
    expect((await installGuard(root, profile)).changed).toEqual([]);
  });

  it('wires a Groovy Gradle build through check', async () => {
    const root = await writeFixtureRepo({
      'build.gradle': "plugins { id 'java' }",
      'settings.gradle': "rootProject.name = 'demo'\n",
    });
    const guard = await installGuard(root, await detectProject(root));
    const build = await readFile(path.join(root, 'build.gradle'), 'utf8');
    expect(build.startsWith("plugins { id 'java' }\n")).toBe(true);
    expect(build).toContain("tasks.register('checkAgentDocs', Exec)");
    expect(build).toContain(
      "tasks.matching { it.name == 'check' }.configureEach { dependsOn 'checkAgentDocs' }",
    );
    expect(guard.changed).toEqual(['scripts/check-agent-docs.sh', 'build.gradle']);
  });

  it('adds a Maven execution to an exec-maven-plugin the build already declares', async () => {
    const pom = `<project>
  <build>
    <plugins>
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.5.0</version>
      </plugin>
    </plugins>
  </build>
</project>
`;
    const root = await writeFixtureRepo({ 'pom.xml': pom });
    await installGuard(root, await detectProject(root));
    const written = await readFile(path.join(root, 'pom.xml'), 'utf8');
    expect(written.match(/<artifactId>exec-maven-plugin<\/artifactId>/g)).toHaveLength(1);
    expect(written).toContain('<id>check-agent-docs</id>');
  });
});
