import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfinedDirectory } from '@groundwork/mcp-common/files';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confinedFileSource } from './fileSource.js';
import { ProjectIndex, projectIndexFor } from './projectIndex.js';
import { fixtureRoot } from './testFixtures.js';

let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'context-index-'));
  cpSync(fixtureRoot('ts-app'), root, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('ProjectIndex', () => {
  it('parses every source file on the first build', async () => {
    using built = new ProjectIndex(root);
    const { stats } = await built.build();
    expect(stats.parsed).toBe(10);
    expect(stats.graphReused).toBe(false);
  });

  it('parses nothing again when the tree is unchanged', async () => {
    using index = new ProjectIndex(root);
    const first = await index.build();
    const second = await index.build();
    expect(second.stats.parsed).toBe(0);
    expect(second.stats.graphReused).toBe(true);
    expect(second.graph).toBe(first.graph);
  });

  it('builds the whole graph on the call after one cancelled halfway through parsing', async () => {
    const edges = (graph: { files: ReadonlyMap<string, { dependencies: readonly string[] }> }) =>
      [...graph.files].map(([file, { dependencies }]) => [file, [...dependencies]]);
    using first = new ProjectIndex(root);
    const expected = edges((await first.build()).graph);
    using index = new ProjectIndex(root);
    const controller = new AbortController();
    await using directory = await ConfinedDirectory.confinedTo(root);
    const plain = confinedFileSource(directory);
    let reads = 0;
    const source = {
      read: plain.read,
      async *readTexts(files: readonly string[], maxBytes: number, signal?: AbortSignal) {
        for await (const text of plain.readTexts(files, maxBytes, signal)) {
          if (++reads === 3) controller.abort();
          yield text;
        }
      },
    };
    await expect(index.build({ directory, source, signal: controller.signal })).rejects.toThrow();
    const after = await index.build();
    expect(after.stats.graphReused).toBe(false);
    expect(edges(after.graph)).toEqual(expected);
  });

  it('re-parses a changed file alone, and its new imports show up', async () => {
    using index = new ProjectIndex(root);
    await index.build();
    const file = path.join(root, 'src/lazy.ts');
    writeFileSync(
      file,
      "import { add } from './utils/math.js';\nexport const later = (): string => String(add(1, 1));\n",
    );
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const { stats, graph } = await index.build();
    expect(stats.parsed).toBe(1);
    expect(graph.files.get('src/lazy.ts')?.dependencies).toEqual(['src/utils/math.ts']);
  });

  it('drops a deleted file and the edges to it', async () => {
    using index = new ProjectIndex(root);
    await index.build();
    rmSync(path.join(root, 'src/lazy.ts'));
    const { stats, graph } = await index.build();
    expect(stats.parsed).toBe(0);
    expect(graph.files.has('src/lazy.ts')).toBe(false);
    expect(graph.files.get('src/main.ts')?.dependencies).not.toContain('src/lazy.ts');
  });

  it('resolves again when a new file makes an import resolvable', async () => {
    using index = new ProjectIndex(root);
    await index.build();
    writeFileSync(path.join(root, 'src/lib/extra.ts'), 'export const extra = 1;\n');
    writeFileSync(
      path.join(root, 'src/uses-extra.ts'),
      "import { extra } from '@lib/extra';\nexport default extra;\n",
    );
    const { stats, graph } = await index.build();
    expect(stats.parsed).toBe(2);
    expect(graph.files.get('src/uses-extra.ts')?.dependencies).toEqual(['src/lib/extra.ts']);
  });

  it('notices a file added to a folder that was empty, on a call right after an unchanged one', async () => {
    using index = new ProjectIndex(root);
    mkdirSync(path.join(root, 'src/empty'));
    await index.build();
    expect((await index.build()).stats.graphReused).toBe(true);
    writeFileSync(path.join(root, 'src/empty/new.ts'), "export { greet } from '../lib/greet.js';\n");
    const { stats, graph } = await index.build();
    expect(stats.parsed).toBe(1);
    expect(graph.files.get('src/empty/new.ts')?.dependencies).toEqual(['src/lib/greet.ts']);
  });

  it('refuses to resolve TypeScript imports past a FIFO named package.json (the resolver would block on it)', async () => {
    rmSync(path.join(root, 'package.json'), { force: true });
    execFileSync('mkfifo', [path.join(root, 'package.json')]);
    using index = new ProjectIndex(root);
    await expect(index.build()).rejects.toMatchObject({ code: 'UNSAFE_CONFIG_FILE' });
  });

  it('refuses to resolve past a FIFO at node_modules/<imported package>/package.json, and ignores one nobody imports', async () => {
    writeFileSync(path.join(root, 'src/bare.ts'), "import { z } from 'zod';\nexport const schema = z;\n");
    mkdirSync(path.join(root, 'node_modules/unused'), { recursive: true });
    execFileSync('mkfifo', [path.join(root, 'node_modules/unused/package.json')]);
    using index = new ProjectIndex(root);
    expect((await index.build()).graph.files.get('src/bare.ts')?.externals).toEqual(['zod']);
    mkdirSync(path.join(root, 'node_modules/zod'), { recursive: true });
    execFileSync('mkfifo', [path.join(root, 'node_modules/zod/package.json')]);
    // Resolution runs again (and the check before it) once a source changes: node_modules is not watched.
    writeFileSync(path.join(root, 'src/bare.ts'), "import { z } from 'zod';\nexport const schema2 = z;\n");
    await expect(index.build()).rejects.toMatchObject({
      code: 'UNSAFE_CONFIG_FILE',
      message: expect.stringContaining("'node_modules/zod/package.json' is a FIFO (named pipe)"),
    });
  });

  it('keeps one index per root for the process', () => {
    expect(projectIndexFor(root)).toBe(projectIndexFor(root));
  });
});
