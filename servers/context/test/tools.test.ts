// The tools over the wire: the built bin on stdio, driven by the official SDK client.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  connectOverStdio,
  defaultBudgetProblem,
  type StdioSession,
  type ToolOutcome,
} from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

let server: StdioSession;

beforeAll(async () => {
  server = await connectOverStdio({
    bin,
    clientName: 'context-wire-test',
    args: ['--allowed-dir', fixtures],
  });
});
afterAll(async () => {
  await server.close();
});

function call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  return server.call(name, args);
}

describe('tools/list', () => {
  it('lists the six read-only tools with output schemas', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'change_impact',
      'context_bundle',
      'estimate_tokens',
      'find_context',
      'project_tree',
      'symbols',
    ]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.outputSchema).toBeDefined();
    }
  });
});

describe('project_tree', () => {
  it('answers files with language, resolved dependencies and externals', async () => {
    const result = await call('project_tree', { path: 'ts-app' });
    expect(result.isError).toBeFalsy();
    const files = result.structuredContent?.files as Array<Record<string, unknown>>;
    expect(files.find((file) => file.path === 'src/main.ts')).toEqual({
      path: 'src/main.ts',
      language: 'typescript',
      dependencies: ['src/lazy.ts', 'src/lib/greet.ts', 'src/types.ts', 'src/utils/index.ts'],
      externals: ['node:fs', 'zod'],
    });
    expect(result.structuredContent?.truncated).toBe(false);
  });

  it('renders mermaid when asked, filtered to the languages given', async () => {
    const result = await call('project_tree', { path: 'jvm-app', format: 'mermaid', languages: ['kotlin'] });
    expect(result.structuredContent?.rendered).toContain('graph LR');
    expect(result.structuredContent?.file_count).toBe(2);
    expect(result.structuredContent?.files).toBeUndefined();
  });

  it('re-parses nothing on a second call over an unchanged tree', async () => {
    const dir = mkdtempSync(path.join(fixtures, '.tmp-cache-'));
    try {
      cpSync(path.join(fixtures, 'go-app'), dir, { recursive: true });
      const relative = path.basename(dir);
      const first = await call('project_tree', { path: relative });
      const second = await call('project_tree', { path: relative });
      expect(first.structuredContent?.parsed_files).toBe(10);
      expect(second.structuredContent?.parsed_files).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports progress while it scans and parses a large tree', async () => {
    const dir = mkdtempSync(path.join(fixtures, '.tmp-progress-'));
    try {
      for (let module = 0; module < 20; module++) {
        mkdirSync(path.join(dir, `m${module}`));
        for (let file = 0; file < 60; file++) {
          const next = (file + 1) % 60;
          writeFileSync(
            path.join(dir, `m${module}`, `f${file}.ts`),
            `import { v${next} } from './f${next}.js';\n\nexport const v${file} = (): unknown => v${next};\n`,
          );
        }
      }
      const progress: Array<{ progress: number; message?: string }> = [];
      const result = await server.client.callTool(
        { name: 'project_tree', arguments: { path: path.basename(dir), max_files: 1 } },
        undefined,
        { onprogress: (notification) => progress.push(notification) },
      );
      expect(result.isError).toBeFalsy();
      expect(progress.length).toBeGreaterThan(0);
      const values = progress.map((notification) => notification.progress);
      expect(values).toEqual([...values].sort((a, b) => a - b));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bounds every answer: a summary by default for a big tree, pages of the full list, a hard ceiling', async () => {
    const dir = mkdtempSync(path.join(fixtures, '.tmp-big-'));
    try {
      for (let module = 0; module < 40; module++) {
        mkdirSync(path.join(dir, `packages/p${module}/src`), { recursive: true });
        for (let file = 0; file < 50; file++) {
          writeFileSync(
            path.join(dir, `packages/p${module}/src/component-with-a-long-name-${file}.ts`),
            `import { shared } from '../../p0/src/component-with-a-long-name-0.js';\nimport 'lodash';\nexport const v = shared;\n`,
          );
        }
      }
      const relative = path.basename(dir);
      const summary = await call('project_tree', { path: relative });
      expect(summary.structuredContent?.mode).toBe('summary');
      expect(await defaultBudgetProblem(summary.text)).toBeUndefined();
      const mostConnected = (
        summary.structuredContent?.summary as { most_connected: Array<{ path: string }> } | undefined
      )?.most_connected;
      expect(mostConnected?.[0]?.path).toBe('packages/p0/src/component-with-a-long-name-0.ts');

      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await call('project_tree', { path: relative, mode: 'files', max_files: 50_000, cursor });
        expect(page.isError).toBeFalsy();
        expect(await defaultBudgetProblem(page.text)).toBeUndefined();
        const files = (page.structuredContent?.files ?? []) as Array<{ path: string }>;
        for (const file of files) seen.push(file.path);
        cursor = page.structuredContent?.next_cursor as string | undefined;
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBeGreaterThan(1);
      expect(new Set(seen).size).toBe(2000);

      // The largest legal call stays within what its tools/list entry tells Claude Code to keep inline.
      const largest = await call('project_tree', {
        path: relative,
        mode: 'files',
        depth: 5,
        max_files: 50_000,
        max_tokens: 100_000,
        format: 'markdown',
      });
      expect(largest.isError).toBeFalsy();
      expect(largest.text.length).toBeLessThanOrEqual(250_000);

      const stale = await call('project_tree', { path: relative, mode: 'files', cursor: 'bm90LWEtY3Vyc29y' });
      expect(stale.isError).toBe(true);
      expect(stale.text).toContain("Invalid argument 'cursor'");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a path outside the allowed directories without revealing server paths', async () => {
    const result = await call('project_tree', { path: '../../..' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('outside the directories this server may read');
    expect(result.text).not.toContain(fixtures);
  });

  it('says which argument is wrong', async () => {
    const result = await call('project_tree', { path: 'ts-app', format: 'svg' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Invalid argument 'format'");
  });

  it('refuses a file as the project root', async () => {
    const result = await call('project_tree', { path: 'ts-app/README.md' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('is not a directory');
  });

  it('lists no file behind a link to outside and is not wedged by a FIFO in the project', async () => {
    const dir = mkdtempSync(path.join(fixtures, '.tmp-hostile-'));
    const outside = mkdtempSync(path.join(tmpdir(), 'context-outside-'));
    try {
      writeFileSync(path.join(outside, 'secret.ts'), "import './other.js';\nexport const secret = 1;\n");
      mkdirSync(path.join(dir, 'src'));
      writeFileSync(
        path.join(dir, 'src/main.ts'),
        "import { secret } from './leak.js';\nexport { secret };\n",
      );
      symlinkSync(path.join(outside, 'secret.ts'), path.join(dir, 'src/leak.ts'));
      symlinkSync(outside, path.join(dir, 'linked'));
      execFileSync('mkfifo', [path.join(dir, 'src/wedge.ts')]);
      execFileSync('mkfifo', [path.join(dir, '.gitignore')]);
      for (const attempt of ['first', 'second']) {
        const result = await call('project_tree', { path: path.basename(dir), mode: 'files' });
        expect(result.isError, attempt).toBeFalsy();
        const files = result.structuredContent?.files as Array<{ path: string }>;
        expect(files.map((file) => file.path)).toEqual(['src/main.ts']);
        expect(result.text).not.toContain('secret');
      }
      // oxc-resolver would open this FIFO by path and block the server for good: the project is refused.
      execFileSync('mkfifo', [path.join(dir, 'package.json')]);
      const refused = await call('project_tree', { path: path.basename(dir) });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain("'package.json' is a FIFO (named pipe), not a regular file");
      expect((await call('project_tree', { path: 'ts-app' })).isError).toBeFalsy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('find_context', () => {
  it('lists dependents nearest first with their distance', async () => {
    const result = await call('find_context', {
      path: 'ts-app',
      file: 'src/utils/math.ts',
      direction: 'dependents',
      depth: 2,
    });
    expect(result.structuredContent).toEqual({
      // The fixtures lie in groundwork's own repository, above the allowed directory: git is not asked.
      state: expect.objectContaining({ source: 'files', dirty_files: 0 }),
      file: 'src/utils/math.ts',
      direction: 'dependents',
      files: [
        { path: 'src/utils/index.ts', distance: 1, direction: 'dependent' },
        { path: 'src/main.ts', distance: 2, direction: 'dependent' },
      ],
      total: 2,
      truncated: false,
    });
  });

  it("walks 'both' as dependencies forward united with dependents backward, never a mix", async () => {
    const result = await call('find_context', {
      path: 'ts-app',
      file: 'src/utils/index.ts',
      direction: 'both',
      depth: 2,
    });
    // main.ts's other imports (lazy.ts, types.ts, lib/greet.ts) are neither dependencies nor dependents.
    expect(result.structuredContent?.files).toEqual([
      { path: 'src/main.ts', distance: 1, direction: 'dependent' },
      { path: 'src/utils/math.ts', distance: 1, direction: 'dependency' },
      { path: 'src/utils/strings.ts', distance: 1, direction: 'dependency' },
    ]);
  });

  it('refuses an oversized file argument by name, without echoing it', async () => {
    const huge = 'a/'.repeat(100_000);
    const result = await call('find_context', { path: 'ts-app', file: huge });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Invalid argument 'file'");
    expect(result.text.length).toBeLessThan(2000);
    const many = await call('estimate_tokens', { path: 'ts-app', files: Array(1001).fill('src/main.ts') });
    expect(many.isError).toBe(true);
    expect(many.text).toContain("Invalid argument 'files'");
  });

  it('reports an unknown file with close matches', async () => {
    const result = await call('find_context', { path: 'python-app', file: 'shop/model.py' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /Invalid argument 'file': 'shop\/model\.py' is not a source file.*Did you mean: shop\/models\.py/,
    );
  });
});

describe('estimate_tokens', () => {
  it('counts the targets and their context, targets first', async () => {
    const result = await call('estimate_tokens', {
      path: 'go-app',
      files: 'cmd/shop/main.go',
      encoding: 'cl100k_base',
    });
    const content = result.structuredContent as {
      total: number;
      files: Array<{ path: string; tokens: number }>;
    };
    expect(content.files.map((file) => file.path)).toEqual(['cmd/shop/main.go', 'internal/cart/cart.go']);
    expect(content.total).toBe(content.files[0]!.tokens + content.files[1]!.tokens);
  });
});

describe('context_bundle', () => {
  it('packs the target and its dependencies under the budget', async () => {
    const result = await call('context_bundle', {
      path: 'python-app',
      files: ['main.py'],
      budget_tokens: 4000,
    });
    const content = result.structuredContent as {
      total_tokens: number;
      files: Array<{ path: string; mode: string; content: string }>;
      omitted: unknown[];
    };
    expect(content.files[0]).toMatchObject({ path: 'main.py', mode: 'full' });
    expect(content.files[0]?.content).toContain('def run():');
    expect(content.files.map((file) => file.path)).toContain('shop/billing/invoice.py');
    expect(content.total_tokens).toBeLessThanOrEqual(4000);
    expect(content.omitted).toEqual([]);
  });
});

describe('symbols', () => {
  it('answers a large file within 20,000 tokens and 50,000 characters by default, and pages the rest', async () => {
    const dir = mkdtempSync(path.join(fixtures, '.tmp-symbols-'));
    try {
      const declarations = Array.from(
        { length: 3000 },
        (_, index) =>
          `export function computeTheLongNamedValue${index}(firstArgument: string, secondArgument: number): Promise<Record<string, number>> {\n  return Promise.resolve({});\n}\n`,
      );
      writeFileSync(path.join(dir, 'large.ts'), declarations.join(''));
      const relative = path.basename(dir);
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await call('symbols', {
          path: relative,
          file: 'large.ts',
          ...(cursor ? { cursor } : {}),
        });
        expect(page.isError, page.text).toBeFalsy();
        expect(await defaultBudgetProblem(page.text)).toBeUndefined();
        expect(page.structuredContent?.total).toBe(3000);
        for (const symbol of (page.structuredContent?.symbols ?? []) as Array<{ name: string }>)
          names.push(symbol.name);
        cursor = page.structuredContent?.next_cursor as string | undefined;
      } while (cursor !== undefined);
      expect(names).toEqual(declarations.map((_, index) => `computeTheLongNamedValue${index}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('outlines one file', async () => {
    const result = await call('symbols', {
      path: 'jvm-app',
      file: 'src/main/java/com/acme/util/Strings.java',
    });
    expect(result.structuredContent?.symbols).toEqual([
      { kind: 'class', name: 'Strings', line: 3, exported: true, signature: 'public final class Strings' },
    ]);
  });
});
