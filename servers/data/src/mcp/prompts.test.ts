import { tmpdir } from 'node:os';
import { AllowedPaths, ToolError } from '@groundwork/mcp-common';
import { shippedWorkflowProblems, toolCalls, toolMentionProblems } from '@groundwork/mcp-testkit';
import { describe, expect, it } from 'vitest';
import { dataPrompts } from './prompts.js';
import { dataTools } from './tools.js';

/** The tool calls a rendered prompt asks for, after checking each names a real tool with arguments it takes. */
function toolCallsIn(text: string): Array<{ tool: string; args: Record<string, unknown> }> {
  expect(toolMentionProblems(text, dataTools)).toEqual([]);
  return toolCalls(text);
}

const ctx = { signal: new AbortController().signal, allowedPaths: await AllowedPaths.under(tmpdir()) };

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
  'check-join': [
    { left_file: 'orders.csv', right_file: 'sqlite:shop.db', right_table: 'customers', on: 'customer_id=id' },
    {
      left_connection_env: 'DATABASE_URL',
      left_table: 'lines',
      right_file: 'orders.parquet',
      on: 'order_id, line',
      compare: 'loose',
    },
  ],
};

describe('the prompts', () => {
  it('are the four workflows, each with a sample here', () => {
    expect(dataPrompts.map((prompt) => prompt.definition.name)).toEqual(Object.keys(SAMPLES));
  });

  for (const prompt of dataPrompts) {
    const { name } = prompt.definition;
    it.each(SAMPLES[name] ?? [])(
      `${name} renders calls the tools accept, with its arguments (%j)`,
      async (args) => {
        const messages = await prompt.render(args, ctx);
        expect(messages).toHaveLength(1);
        const calls = toolCallsIn(messages[0]?.text ?? '');
        expect(calls.length).toBeGreaterThan(0);
        // toolCallsIn has checked each call against its tool's input schema.
        for (const call of calls) {
          if (name === 'check-join') continue;
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

    if (name === 'check-join') {
      it('check-join passes each side to join_check as given, and refuses a side that names no data', async () => {
        const [message] = await prompt.render(SAMPLES[name]![0]!, ctx);
        const [join, duplicates] = toolCallsIn(message?.text ?? '');
        expect(join?.args).toEqual({
          left: { file: 'orders.csv' },
          right: { file: 'sqlite:shop.db', table: 'customers' },
          on: ['customer_id=id'],
        });
        expect(duplicates?.args).toEqual({ file: 'sqlite:shop.db', table: 'customers', columns: ['id'] });
        await expect(prompt.render({ left_file: 'a.csv', on: 'id' }, ctx)).rejects.toThrow(/'right_file'/);
      });
      continue;
    }

    it(`${name} refuses, naming 'file', arguments that name no data`, async () => {
      await expect(prompt.render({ table: 'orders', columns: 'id' }, ctx)).rejects.toThrow(ToolError);
      await expect(prompt.render({ columns: 'id' }, ctx)).rejects.toThrow(/'file'/);
    });
  }
});

describe('the skills', () => {
  it('each have a prompt of their name and call only real tools with arguments they take, each tool somewhere', () => {
    expect(
      shippedWorkflowProblems({
        skillsDir: new URL('../../skills/', import.meta.url),
        tools: dataTools,
        prompts: dataPrompts,
        everyToolCalled: true,
      }),
    ).toEqual([]);
  });
});
