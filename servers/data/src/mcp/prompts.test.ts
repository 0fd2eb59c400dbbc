import { tmpdir } from 'node:os';
import { AllowedPaths, ToolError } from '@groundwork/mcp-common';
import { describe, expect, it } from 'vitest';
import { dataPrompts } from './prompts.js';
import { dataTools } from './tools.js';

const ctx = { signal: new AbortController().signal, allowedPaths: await AllowedPaths.under(tmpdir()) };

/** Every "`tool` with {json}" a rendered prompt asks for, its JSON parsed. */
function toolCalls(text: string): Array<{ tool: string; args: Record<string, unknown> }> {
  const calls = [];
  for (const match of text.matchAll(/`([a-z_]+)` with \{/g)) {
    const start = (match.index ?? 0) + match[0].length - 1;
    let depth = 0;
    let inString = false;
    let end = start;
    for (; end < text.length; end++) {
      const char = text[end];
      if (inString) {
        if (char === '\\') end++;
        else if (char === '"') inString = false;
      } else if (char === '"') inString = true;
      else if (char === '{') depth++;
      else if (char === '}' && --depth === 0) break;
    }
    calls.push({ tool: match[1] as string, args: JSON.parse(text.slice(start, end + 1)) });
  }
  return calls;
}

const SAMPLES: Record<string, Array<Record<string, string>>> = {
  'find-table-key': [
    { file: 'orders.parquet' },
    { file: 'sqlite:shop.db', table: '"Order Lines"', columns: 'order_id, line,' },
    { connection_env: 'DATABASE_URL', table: 'public.orders', file: '' },
  ],
  'check-key-unique': [
    { file: 'exports/users.csv.gz', columns: 'email', compare: 'loose' },
    { file: 'people "2024".csv', columns: 'first name,last name' },
  ],
  'profile-a-dataset': [{ file: 'people.csv' }, { file: 'events.jsonl', columns: 'user.address.city' }],
};

describe('the prompts', () => {
  it('are the three workflows, each with a sample here', () => {
    expect(dataPrompts.map((prompt) => prompt.definition.name)).toEqual(Object.keys(SAMPLES));
  });

  for (const prompt of dataPrompts) {
    const { name } = prompt.definition;
    it.each(SAMPLES[name] ?? [])(
      `${name} renders calls the tools accept, with its arguments (%j)`,
      async (args) => {
        const messages = await prompt.render(args, ctx);
        expect(messages).toHaveLength(1);
        const calls = toolCalls(messages[0]?.text ?? '');
        expect(calls.length).toBeGreaterThan(0);
        for (const call of calls) {
          const tool = dataTools.find((candidate) => candidate.definition.name === call.tool);
          expect(tool, `${call.tool} is one of the server's tools`).toBeDefined();
          expect(() => tool?.definition.input.parse(call.args), JSON.stringify(call)).not.toThrow();
          // The source reaches every call as given; empty arguments are left out.
          for (const source of ['file', 'table', 'connection_env']) {
            if ((args[source] ?? '') === '') expect(call.args, source).not.toHaveProperty(source);
            else expect(call.args[source], source).toBe(args[source]);
          }
        }
        const first = calls[0]?.args ?? {};
        if (args.columns !== undefined) {
          expect(first.columns).toEqual(
            args.columns
              .split(',')
              .map((column) => column.trim())
              .filter(Boolean),
          );
        }
        if (args.compare === 'loose') expect(first).toMatchObject({ trim: true, case_insensitive: true });
      },
    );

    it(`${name} refuses, naming 'file', arguments that name no data`, async () => {
      await expect(prompt.render({ table: 'orders', columns: 'id' }, ctx)).rejects.toThrow(ToolError);
      await expect(prompt.render({ columns: 'id' }, ctx)).rejects.toThrow(/'file'/);
    });
  }
});
