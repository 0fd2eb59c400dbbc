import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AllowedPaths, type CompletionContext } from '@groundwork/mcp-common';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectIndexFor } from '../core/projectIndex.js';
import { fixtureRoot } from '../core/testFixtures.js';
import { completeProjectFile, completeSymbol } from './projectCompleters.js';

let ctx: CompletionContext;
beforeAll(async () => {
  // The fixtures folder is the one allowed directory: `ts-app` resolves inside it, `..` leads out.
  ctx = { signal: new AbortController().signal, allowedPaths: await AllowedPaths.under(fixtureRoot('.')) };
  // A completion gives up indexing a project it has not seen after 5 s: the indexes it reads, built in full.
  for (const project of ['ts-app', 'go-app'])
    await projectIndexFor(realpathSync(fixtureRoot(project))).build();
});

const complete = (completer: typeof completeSymbol, value: string, args: Record<string, string>) =>
  completer({ value, arguments: args }, ctx);

describe('completeProjectFile', () => {
  it("offers the project's source files one folder at a time", async () => {
    expect((await complete(completeProjectFile, 'src/utils/', { path: 'ts-app' })).values).toEqual([
      'src/utils/index.ts',
      'src/utils/math.ts',
      'src/utils/strings.ts',
    ]);
    expect((await complete(completeProjectFile, 'src/l', { path: 'ts-app' })).values).toEqual([
      'src/lazy.ts',
      'src/legacy.ts',
      'src/lib/',
    ]);
  });

  it('offers only files the tools accept (not skipped or ignored ones)', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'context-completion-'));
    try {
      for (const file of ['src/a.ts', 'node_modules/x/index.js', 'dist/out.js', 'debug.log', '.gitignore']) {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), file === '.gitignore' ? '*.log\n' : 'export const a = 1;\n');
      }
      const inTemp = { ...ctx, allowedPaths: await AllowedPaths.under(root) };
      await projectIndexFor(realpathSync(root)).build();
      const top = await completeProjectFile({ value: '', arguments: { path: '.' } }, inTemp);
      expect(top.values).toContain('src/');
      for (const skipped of ['node_modules/', 'dist/', 'debug.log'])
        expect(top.values).not.toContain(skipped);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('offers nothing without a project, outside the allowed directories, or for a file', async () => {
    for (const path of [undefined, '', '..', '/etc', 'ts-app/src/main.ts', 'no-such-project']) {
      const args: Record<string, string> = path === undefined ? {} : { path };
      expect(await complete(completeProjectFile, '', args)).toEqual({ values: [], total: 0, hasMore: false });
    }
  });
});

describe('completeSymbol', () => {
  it("offers the chosen file's top-level names, prefix-matched case-insensitively", async () => {
    const args = { path: 'go-app', file: 'internal/cart/cart.go' };
    expect((await complete(completeSymbol, '', args)).values).toEqual(['Cart', 'New']);
    expect((await complete(completeSymbol, 'c', args)).values).toEqual(['Cart']);
    expect((await complete(completeSymbol, 'x', args)).values).toEqual([]);
  });

  it('gives the names the symbols tool lists, in its order', async () => {
    const args = { path: 'ts-app', file: 'src/main.ts' };
    expect((await complete(completeSymbol, '', args)).values).toEqual(['main']);
    // Normalized as the tools normalize a file argument.
    expect((await complete(completeSymbol, 'm', { path: 'ts-app', file: './src/main.ts' })).values).toEqual([
      'main',
    ]);
  });

  it('offers nothing for a missing or unknown file, a file outside the project, or a non-source file', async () => {
    const cases: Array<Record<string, string>> = [
      { path: 'ts-app' },
      { path: 'ts-app', file: 'src/mian.ts' },
      { path: 'ts-app', file: '../go-app/internal/cart/cart.go' },
      { path: 'ts-app', file: 'README.md' },
      { path: '..', file: 'etc/passwd' },
      // As long as a prompt argument may be (16,384 characters).
      { path: 'ts-app', file: `src/${'x'.repeat(16_000)}.ts` },
    ];
    for (const args of cases) {
      expect((await complete(completeSymbol, '', args)).values).toEqual([]);
    }
  });

  it('offers nothing once the client cancelled', async () => {
    const cancelled = { ...ctx, signal: AbortSignal.abort() };
    const answer = await completeSymbol(
      { value: '', arguments: { path: 'python-app', file: 'main.py' } },
      cancelled,
    );
    expect(answer.values).toEqual([]);
  });
});
