// The context prompts and completions on the wire: the built bin over stdio, driven by the official SDK
// client (whose schemas check every answer), as a client that shows prompts as slash commands uses them.
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
let session: StdioSession;

beforeAll(async () => {
  session = await connectOverStdio({
    bin,
    clientName: 'context-prompts-test',
    args: ['--allowed-dir', fixtures],
  });
  // A completion gives up indexing a project it has not seen after 5 s; a tool call indexes them in full.
  for (const project of ['ts-app', 'go-app']) await session.call('project_tree', { path: project });
});
afterAll(() => session.close());

const complete: StdioSession['complete'] = (...args) => session.complete(...args);

describe('groundwork-context prompts over stdio', () => {
  it('lists one prompt per skill, with their arguments', async () => {
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      'prepare-edit-context',
      'assess-edit-impact',
      'what-to-test',
    ]);
    expect(prompts[0]?.arguments?.map((argument) => [argument.name, argument.required])).toEqual([
      ['path', true],
      ['file', true],
      ['symbol', false],
      ['budget_tokens', false],
      ['task', false],
    ]);
  });

  it('renders each prompt with the arguments given', async () => {
    const prepared = await session.client.getPrompt({
      name: 'prepare-edit-context',
      arguments: { path: 'ts-app', file: 'src/main.ts', budget_tokens: '3000' },
    });
    expect(prepared.messages[0]?.content).toMatchObject({
      type: 'text',
      text: expect.stringContaining(
        '`context_bundle` with `{"path":"ts-app","files":["src/main.ts"],"budget_tokens":3000}`',
      ),
    });
    const impact = await session.client.getPrompt({
      name: 'assess-edit-impact',
      arguments: { path: 'go-app', file: 'internal/cart/cart.go', symbol: 'New' },
    });
    expect(impact.messages[0]?.content).toMatchObject({
      text: expect.stringContaining('"direction":"dependents","depth":3'),
    });
  });

  it('refuses a missing required argument or a budget out of range, naming it (-32602)', async () => {
    await expect(
      session.client.getPrompt({ name: 'prepare-edit-context', arguments: { path: 'ts-app' } }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("'file'") });
    await expect(
      session.client.getPrompt({
        name: 'prepare-edit-context',
        arguments: { path: 'ts-app', file: 'src/main.ts', budget_tokens: '10' },
      }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("'budget_tokens'") });
  });
});

describe('groundwork-context completions over stdio', () => {
  it('completes path with folders under the allowed directory, and nothing outside it', async () => {
    expect((await complete('prepare-edit-context', 'path', 'ts-')).values).toEqual(['ts-app/']);
    for (const outside of ['../', '/etc/', '../../']) {
      expect((await complete('prepare-edit-context', 'path', outside)).values).toEqual([]);
    }
  });

  it("completes file with the project's files, one folder at a time", async () => {
    expect((await complete('prepare-edit-context', 'file', 'src/utils/', { path: 'ts-app' })).values).toEqual(
      ['src/utils/index.ts', 'src/utils/math.ts', 'src/utils/strings.ts'],
    );
    expect((await complete('assess-edit-impact', 'file', '', { path: '../' })).values).toEqual([]);
  });

  it("completes symbol with the chosen file's declarations", async () => {
    const context = { path: 'go-app', file: 'internal/cart/cart.go' };
    expect((await complete('prepare-edit-context', 'symbol', '', context)).values).toEqual(['Cart', 'New']);
    expect((await complete('assess-edit-impact', 'symbol', 'n', context)).values).toEqual(['New']);
    expect((await complete('assess-edit-impact', 'symbol', '', { path: 'go-app' })).values).toEqual([]);
  });
});
