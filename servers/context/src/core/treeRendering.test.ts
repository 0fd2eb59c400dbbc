import { describe, expect, it } from 'vitest';
import { ProjectIndex } from './projectIndex.js';
import { describeProjectTree, treePage } from './projectTree.js';
import { fixtureRoot } from './testFixtures.js';
import { renderTree } from './treeRendering.js';

async function tree(options: { depth?: number; maxFiles?: number; languages?: ['python'] } = {}) {
  using built = new ProjectIndex(fixtureRoot('python-app'));
  const { graph } = await built.build();
  const files = describeProjectTree(graph, { depth: options.depth ?? 1, languages: options.languages });
  const shown = files.paths.slice(0, options.maxFiles ?? 100);
  return treePage(files, shown, shown.length < files.paths.length);
}

describe('describeProjectTree', () => {
  it('lists transitive dependencies nearest first at depth 2', async () => {
    const main = (await tree({ depth: 2 })).files.find((file) => file.path === 'main.py');
    expect(main?.dependencies).toEqual([
      'shop/billing/__init__.py',
      'shop/models.py',
      'shop/billing/invoice.py',
    ]);
  });

  it('counts every file of the tree on a page of a few', async () => {
    const cut = await tree({ maxFiles: 2 });
    expect(cut.files).toHaveLength(2);
    expect(cut.file_count).toBe(6);
  });
});

describe('renderTree', () => {
  it('renders markdown as a nested list with dependencies and packages', async () => {
    const markdown = renderTree(await tree(), 'markdown');
    expect(markdown).toContain('- **shop/**');
    expect(markdown).toContain(
      '- `main.py` (python) → `shop/billing/__init__.py`, `shop/models.py` · packages: json, requests',
    );
    expect(markdown).toContain('    - `invoice.py` (python)');
  });

  it('renders dot and mermaid graphs with one edge per dependency', async () => {
    const input = await tree();
    expect(renderTree(input, 'dot')).toContain('"shop/billing/invoice.py" -> "shop/models.py";');
    const mermaid = renderTree(input, 'mermaid');
    expect(mermaid.startsWith('graph LR')).toBe(true);
    expect(mermaid.split('\n').filter((line) => line.includes('-->'))).toHaveLength(input.edge_count);
  });

  it('renders text as an indented tree', async () => {
    const text = renderTree(await tree(), 'text');
    expect(text.split('\n')).toContain('  billing/');
  });
});
