import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AllowedPaths } from '../files/allowedPaths.js';
import { completeFrom, completePath } from './completers.js';
import type { Completer, CompletionContext } from './prompt.js';

// outside/            a sibling of the allowed root, with a secret and a folder
// root/               the allowed directory
//   data.csv  Data.TSV  notes.md  .hidden.csv  many/ (150 files)  sub/ (inner.csv, deeper/)
//   link-in -> sub    link-file -> data.csv    link-out -> ../outside    link-secret -> ../outside/secret.csv
let base: string;
let root: string;
let ctx: CompletionContext;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'groundwork-completers-'));
  root = path.join(base, 'root');
  await mkdir(path.join(base, 'outside', 'folder'), { recursive: true });
  await writeFile(path.join(base, 'outside', 'secret.csv'), 'x');
  await mkdir(path.join(root, 'sub', 'deeper'), { recursive: true });
  await mkdir(path.join(root, 'many'));
  for (const name of ['data.csv', 'Data.TSV', 'notes.md', '.hidden.csv', 'sub/inner.csv']) {
    await writeFile(path.join(root, name), 'x');
  }
  for (let index = 0; index < 150; index++) {
    await writeFile(path.join(root, 'many', `file-${String(index).padStart(3, '0')}.csv`), '');
  }
  await symlink('sub', path.join(root, 'link-in'));
  await symlink('data.csv', path.join(root, 'link-file'));
  await symlink('../../outside', path.join(root, 'link-out'));
  await symlink('../../outside/secret.csv', path.join(root, 'link-secret'));
  ctx = { signal: new AbortController().signal, allowedPaths: await AllowedPaths.under(root) };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const values = async (completer: Completer, value: string, context = ctx) =>
  (await completer({ value, arguments: {} }, context)).values;

describe('completePath', () => {
  const anyPath = completePath({ kind: 'any' });

  it('lists the allowed directory for an empty value, folders with a trailing slash, links as what they lead to', async () => {
    expect(await values(anyPath, '')).toEqual([
      'Data.TSV',
      'data.csv',
      'link-file',
      'link-in/',
      'many/',
      'notes.md',
      'sub/',
    ]);
  });

  it('completes inside a folder, keeping what was typed before the last slash', async () => {
    expect(await values(anyPath, 'sub/')).toEqual(['sub/deeper/', 'sub/inner.csv']);
    expect(await values(anyPath, 'sub/i')).toEqual(['sub/inner.csv']);
    expect(await values(anyPath, 'link-in/d')).toEqual(['link-in/deeper/']);
    expect(await values(anyPath, 'su')).toEqual(['sub/']);
  });

  it('matches case-insensitively and offers hidden entries once a dot is typed', async () => {
    expect(await values(anyPath, 'da')).toEqual(['Data.TSV', 'data.csv']);
    expect(await values(anyPath, '.h')).toEqual(['.hidden.csv']);
  });

  it('offers only folders for kind directory, and only the given endings (plus folders) for kind file', async () => {
    expect(await values(completePath({ kind: 'directory' }), '')).toEqual(['link-in/', 'many/', 'sub/']);
    expect(await values(completePath({ kind: 'file', extensions: ['.tsv', '.md'] }), '')).toEqual([
      'Data.TSV',
      'link-in/',
      'many/',
      'notes.md',
      'sub/',
    ]);
  });

  it('offers nothing outside the allowed directory, however the value gets there', async () => {
    const outside = [
      '../../',
      '../../x',
      '../../outside/',
      'sub/../../',
      'link-out/',
      'link-out/s',
      '/etc/',
      '/etc/pass',
      `${path.join(base, 'outside')}/`,
      '/',
      'nope/',
      'data.csv/',
      'a\0b/',
    ];
    for (const value of outside) expect(await values(anyPath, value), value).toEqual([]);
    // A link that leads out is not offered at all, nor one to a file outside.
    expect(await values(anyPath, 'link-')).toEqual(['link-file', 'link-in/']);
  });

  it('completes an absolute value inside the allowed directory as typed', async () => {
    expect(await values(anyPath, `${root}/sub/in`)).toEqual([`${root}/sub/inner.csv`]);
  });

  it('cuts at 100 values and reports the total', async () => {
    const completion = await anyPath({ value: 'many/file-', arguments: {} }, ctx);
    expect(completion.values).toHaveLength(100);
    expect(completion.values[0]).toBe('many/file-000.csv');
    expect(completion).toMatchObject({ total: 150, hasMore: true });
  });

  it('stops when the request is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      anyPath({ value: 'many/', arguments: {} }, { ...ctx, signal: controller.signal }),
    ).rejects.toThrow();
  });
});

describe('completeFrom', () => {
  it('offers the listed values that start with what was typed, in order, case-insensitively', async () => {
    const completer = completeFrom(['Alpha', 'beta', 'alphabet']);
    expect(await values(completer, 'AL')).toEqual(['Alpha', 'alphabet']);
    expect(await values(completer, '')).toEqual(['Alpha', 'beta', 'alphabet']);
    expect(await values(completer, 'z')).toEqual([]);
  });

  it('takes a function of the request for values that depend on other arguments', async () => {
    const completer = completeFrom(({ arguments: args }) => (args.table === 't' ? ['id', 'name'] : []));
    expect((await completer({ value: 'n', arguments: { table: 't' } }, ctx)).values).toEqual(['name']);
  });
});
