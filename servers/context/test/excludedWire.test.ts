// Over the wire: an import that resolves into a folder the scan leaves out (`#ansi` → vendor/, an ignored
// folder) is reported in project_tree's `excluded`, with the folder and where it leads — not dropped, and not
// counted as unresolved.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOverStdio, type StdioSession } from '@groundwork/mcp-testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

let server: StdioSession;
let root: string;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'excluded-wire-')));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'x', type: 'module', imports: { '#ansi': './vendor/ansi.js' } }),
    '.gitignore': 'generated/\n',
    'src/a.js':
      "import a from '#ansi';\nimport c from '../generated/table.js';\nimport d from './missing.js';\nimport e from './b.js';\n",
    'src/b.js': 'export default 1;\n',
    'vendor/ansi.js': 'export default 1;\n',
    'generated/table.js': 'export default 1;\n',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  server = await connectOverStdio({ bin, clientName: 'excluded-wire', args: ['--allowed-dir', root] });
});
afterAll(async () => {
  await server.close();
});

describe('imports into left-out folders, over the wire', () => {
  it('project_tree reports them in excluded with the folder, apart from unresolved ones', async () => {
    const result = await server.call('project_tree', { path: root, mode: 'files', format: 'json' });
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as {
      excluded: unknown;
      unresolved: { count: number; samples: unknown[] };
    };
    expect(answer.excluded).toEqual({
      count: 2,
      folders: [
        { folder: 'generated', imports: 1 },
        { folder: 'vendor', imports: 1 },
      ],
      samples: [
        { file: 'src/a.js', specifier: '#ansi', target: 'vendor/ansi.js' },
        { file: 'src/a.js', specifier: '../generated/table.js', target: 'generated/table.js' },
      ],
    });
    expect(answer.unresolved).toMatchObject({
      count: 1,
      samples: [{ file: 'src/a.js', specifier: './missing.js' }],
    });
  });
});
