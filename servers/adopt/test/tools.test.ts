// The tools over the wire: the built bin on stdio, driven by the official SDK client. adopt_repo runs
// against bare git repositories reached over file:// URLs; `gh` is never reached here (dry runs and
// failures before the pull-request step), the core tests cover that step with a stand-in gh.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession, type ToolOutcome } from '@groundwork/mcp-testkit';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainRepo } from '../src/testing/buildToolRepos.js';
import { conventionalRepo } from '../src/testing/conventionalRepo.js';
import { type FixtureFiles, writeFixtureFiles } from '../src/testing/fixtureRepo.js';
import { createBareRemote } from '../src/testing/gitFixtures.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
const TOKEN = 'ghp_WIREfakeWIREfakeWIREfakeWIREfake0001';

let server: StdioSession;
let brokenSkills: string;
const rank = (severity: unknown) => ['error', 'warning', 'note'].indexOf(String(severity));
let workspaceRoot: string;

beforeAll(async () => {
  workspaceRoot = await mkdtemp(path.join(tmpdir(), 'adopt-wire-'));
  server = await connectOverStdio({
    bin,
    clientName: 'adopt-wire-test',
    args: ['--allowed-dir', fixtures, '--allowed-dir', workspaceRoot],
    env: { GROUNDWORK_ADOPT_BACKOFF_MS: '1', GROUNDWORK_LOG_LEVEL: 'debug' },
  });
});
afterAll(async () => {
  await server.close();
});

function call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  return server.call(name, args, { timeoutMs: 120_000 });
}

describe('tools/list', () => {
  it('lists verify_repo and doctor (read-only) and adopt_repo (writes, open world)', async () => {
    const { tools } = await server.client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual(['adopt_repo', 'doctor', 'verify_repo']);
    expect(byName.verify_repo?.annotations?.readOnlyHint).toBe(true);
    expect(byName.doctor?.annotations?.readOnlyHint).toBe(true);
    expect(byName.adopt_repo?.annotations?.readOnlyHint).toBe(false);
    expect(byName.adopt_repo?.annotations?.openWorldHint).toBe(true);
    // It pushes to remotes and commits in local checkouts.
    expect(byName.adopt_repo?.annotations?.destructiveHint).toBe(true);
    expect(byName.verify_repo?.annotations?.openWorldHint).toBe(false);
  });
});

describe('verify_repo', () => {
  it('passes a conforming repository', async () => {
    const result = await call('verify_repo', { path: 'conventional-repo' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ passed: true, totals: { errors: 0, warnings: 0 } });
  });

  it('returns findings with rule, severity, file, line, fix and documentation', async () => {
    const result = await call('verify_repo', { path: 'broken-repo' });
    const findings = result.structuredContent?.findings as Array<Record<string, unknown>>;
    expect(result.structuredContent?.passed).toBe(false);
    expect(findings).toContainEqual({
      rule: 'links/unresolved',
      severity: 'warning',
      file: 'AGENTS.md',
      line: 4,
      message: "Link 'docs/gone.md' does not resolve to a file in the repository.",
      fix: 'Fix the path (it is relative to this file) or remove the link.',
      docs: 'https://agents.md',
    });
  });

  it('pages 400 broken skills into answers that fit the default budget, with every count whole', {
    timeout: 120_000,
  }, async () => {
    const files: FixtureFiles = conventionalRepo();
    for (let index = 0; index < 400; index++)
      files[`.claude/skills/skill-${index}/SKILL.md`] =
        `---\nname: skill-${index}\ndescription: [Use when the task ${index} comes up\n---\n\nBody.\n`;
    brokenSkills = path.join(workspaceRoot, 'broken-skills');
    await writeFixtureFiles(brokenSkills, files);
    const seen: Array<Record<string, unknown>> = [];
    let cursor: string | undefined;
    let first: Record<string, unknown> | undefined;
    do {
      const result = await call('verify_repo', { path: brokenSkills, ...(cursor ? { cursor } : {}) });
      expect(result.isError, result.text).toBeFalsy();
      // The text block is the whole answer: within 50,000 characters and 20,000 o200k tokens.
      expect(result.text.length).toBeLessThanOrEqual(50_000);
      expect(countTokens(result.text)).toBeLessThanOrEqual(20_000);
      expect(JSON.parse(result.text)).toEqual(result.structuredContent);
      first ??= result.structuredContent;
      seen.push(...((result.structuredContent?.findings ?? []) as Array<Record<string, unknown>>));
      cursor = result.structuredContent?.next_cursor as string | undefined;
      expect(seen.length).toBeLessThan(10_000);
    } while (cursor !== undefined);
    const totals = first?.totals as { errors: number; warnings: number; notes: number };
    expect(first?.truncated).toBe(true);
    expect(seen).toHaveLength(totals.errors + totals.warnings + totals.notes);
    expect(first?.total).toBe(seen.length);
    const byRule = first?.by_rule as Array<{ rule: string; count: number }>;
    expect(byRule.find((entry) => entry.rule === 'skill/front-matter-strict')?.count).toBe(400);
    expect(byRule.reduce((sum, entry) => sum + entry.count, 0)).toBe(seen.length);
    const severities = seen.map((finding) => finding.severity);
    expect(severities).toEqual([...severities].sort((a, b) => rank(a) - rank(b)));
  });

  it('refuses a cursor handed out for another repository, naming the argument', async () => {
    const first = await call('verify_repo', { path: brokenSkills, max_tokens: 1_000 });
    const cursor = first.structuredContent?.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const result = await call('verify_repo', { path: 'broken-repo', cursor });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Invalid argument 'cursor'");
  });

  it('refuses a path outside the allowed directories without revealing where they are', async () => {
    const result = await call('verify_repo', { path: '/etc' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('is outside the directories this server may read');
    expect(result.text).not.toContain(fixtures);
  });

  it('names the argument when the path is not a directory', async () => {
    const result = await call('verify_repo', { path: 'conventional-repo/AGENTS.md' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      "Invalid argument 'path': 'conventional-repo/AGENTS.md' is not a directory",
    );
  });
});

describe('adopt_repo', () => {
  it('prepares the branch in a dry run and reports the checkout', async () => {
    const remote = await createBareRemote(plainRepo, 'main', workspaceRoot);
    const result = await call('adopt_repo', {
      repository_url: remote.url,
      workspace: path.join(workspaceRoot, 'ws'),
      dry_run: true,
    });
    expect(result.isError).toBeFalsy();
    const [report] = (result.structuredContent?.repositories ?? []) as Array<Record<string, unknown>>;
    expect(report).toMatchObject({ succeeded: true, branch: 'agents/adopt-conventions' });
    expect(report?.completed_steps).toContain('verify');
    expect(String(report?.checkout)).toMatch(/^ws\/adopt-remote-/);
  });

  it('is an error result when any repository of a batch fails, with every report and the token masked', async () => {
    const remote = await createBareRemote(plainRepo, 'main', workspaceRoot);
    const result = await call('adopt_repo', {
      repository_urls: [remote.url, `http://x-access-token:${TOKEN}@127.0.0.1:9/octo/demo.git`],
      workspace: path.join(workspaceRoot, 'batch'),
      dry_run: true,
      retries: 1,
    });
    expect(result.isError).toBe(true);
    const text = result.text ?? '';
    expect(text).toContain('1 of 2 repositories failed');
    expect(text).toContain('"step": "clone"');
    expect(text).not.toContain(TOKEN);
    expect(server.stderr()).not.toContain(TOKEN);
  });

  it('accepts names as a comma-separated string too', async () => {
    const remote = await createBareRemote(plainRepo, 'main', workspaceRoot);
    const result = await call('adopt_repo', {
      repository_urls: remote.url,
      reviewers: 'alice, bob',
      workspace: path.join(workspaceRoot, 'names'),
      dry_run: true,
    });
    expect(result.isError).toBeFalsy();
  });

  it('refuses a local remote outside the allowed directories before git sees it', async () => {
    const outside = await createBareRemote(plainRepo);
    const result = await call('adopt_repo', {
      repository_url: outside.url,
      workspace: path.join(workspaceRoot, 'out'),
      dry_run: true,
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('is outside the directories this server may read');
  });

  it('needs a repository_url, repository_urls or path', async () => {
    const result = await call('adopt_repo', { dry_run: true });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Invalid argument 'repository_url'");
  });

  it('bounds timeout_minutes', async () => {
    const result = await call('adopt_repo', { path: 'conventional-repo', timeout_minutes: 600 });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Invalid argument 'timeout_minutes': must be at most 60");
  });
});
