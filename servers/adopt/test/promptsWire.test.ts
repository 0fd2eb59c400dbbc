// The adopt prompts and completions on the wire: the built bin over stdio, driven by the official SDK client.
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
let session: StdioSession;

beforeAll(async () => {
  session = await connectOverStdio({
    bin,
    clientName: 'adopt-prompts-test',
    args: ['--allowed-dir', fixtures],
  });
});
afterAll(() => session.close());

const complete: StdioSession['complete'] = (...args) => session.complete(...args);

describe('groundwork-adopt prompts over stdio', () => {
  it('lists one prompt per skill', async () => {
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['make-repo-agent-ready', 'fix-agent-config']);
  });

  it('renders each prompt with the arguments given', async () => {
    const ready = await session.client.getPrompt({
      name: 'make-repo-agent-ready',
      arguments: { path: 'conventional-repo' },
    });
    expect(ready.messages[0]?.content).toMatchObject({
      type: 'text',
      text: expect.stringContaining('`adopt_repo` with `{"path":"conventional-repo","dry_run":true}`'),
    });
    const fix = await session.client.getPrompt({
      name: 'fix-agent-config',
      arguments: { path: 'broken-repo', rule: 'skill/*' },
    });
    expect(fix.messages[0]?.content).toMatchObject({
      text: expect.stringContaining('`verify_repo` with `{"path":"broken-repo"}`'),
    });
  });

  it('refuses a URL with credentials without echoing the token (-32602)', async () => {
    const refusal = session.client.getPrompt({
      name: 'make-repo-agent-ready',
      arguments: {
        repository_url: 'https://x-access-token:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r',
      },
    });
    await expect(refusal).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("'repository_url'"),
    });
    await expect(refusal).rejects.not.toMatchObject({ message: expect.stringContaining('ghp_') });
  });
});

describe('groundwork-adopt completions over stdio', () => {
  it('completes path with folders under the allowed directory, and nothing outside it', async () => {
    expect((await complete('fix-agent-config', 'path', 'conv')).values).toEqual(['conventional-repo/']);
    for (const outside of ['../', '/etc/']) {
      expect((await complete('make-repo-agent-ready', 'path', outside)).values).toEqual([]);
    }
  });

  it("completes rule from verify's catalog and assets with true/false", async () => {
    expect((await complete('fix-agent-config', 'rule', 'skill/name')).values).toEqual([
      'skill/name',
      'skill/name-folder',
    ]);
    expect((await complete('make-repo-agent-ready', 'assets', 't')).values).toEqual(['true']);
  });
});
