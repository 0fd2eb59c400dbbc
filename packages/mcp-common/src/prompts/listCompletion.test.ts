import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AllowedPaths } from '../files/allowedPaths.js';
import { completeFrom } from './completers.js';
import { completeListItem } from './listCompletion.js';
import { PromptCatalog } from './promptCatalog.js';

const ctx = { signal: new AbortController().signal, allowedPaths: await AllowedPaths.under(process.cwd()) };
const columns = completeListItem(completeFrom(['id', 'email', 'e,mail', 'name', 'Email_2']));
const complete = async (value: string) => (await columns({ value, arguments: {} }, ctx)).values;

describe('completeListItem', () => {
  it('completes a single entry as the inner completer does', async () => {
    expect(await complete('')).toEqual(['id', 'email', 'name', 'Email_2']);
    expect(await complete('em')).toEqual(['email', 'Email_2']);
  });

  it('completes the last entry, keeping those before it', async () => {
    expect(await complete('id, em')).toEqual(['id, email', 'id, Email_2']);
    expect(await complete('id,em')).toEqual(['id, email', 'id, Email_2']);
    expect(await complete('id, ')).toEqual(['id, email', 'id, name', 'id, Email_2']);
  });

  it('leaves out entries already listed and values a list cannot carry', async () => {
    expect(await complete('email, name,')).toEqual(['email, name, id', 'email, name, Email_2']);
    expect((await columns({ value: 'e', arguments: {} }, ctx)).total).toBe(2);
  });

  it('offers nothing, and no "more", once the entries listed leave no room for a value (through the catalog)', async () => {
    const many = completeListItem(completeFrom(Array.from({ length: 500 }, (_, index) => `c${index}`)));
    const catalog = new PromptCatalog(
      [
        {
          definition: {
            name: 'p',
            title: 'P',
            description: 'P.',
            arguments: [{ name: 'columns', description: 'Columns.', complete: many }],
          },
          render: async () => [{ role: 'user', text: 'p' }],
        },
      ],
      pino({ level: 'silent' }),
      1024 * 1024,
    );
    const { completion } = await catalog.complete(
      { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'columns', value: 'c1,'.repeat(4000) } },
      ctx,
    );
    expect(completion).toEqual({ values: [], hasMore: false });
  });
});
