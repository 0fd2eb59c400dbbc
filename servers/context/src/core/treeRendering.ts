// The project tree as text a model or a person reads directly: markdown, an indented text tree, or a graph
// in Graphviz dot or Mermaid.
import type { ProjectTree, TreeFile } from './projectTree.js';

export const TREE_FORMATS = ['json', 'markdown', 'text', 'dot', 'mermaid'] as const;
export type TreeFormat = (typeof TREE_FORMATS)[number];

export function renderTree(tree: ProjectTree, format: Exclude<TreeFormat, 'json'>): string {
  switch (format) {
    case 'markdown':
      return renderIndented(
        tree,
        (depth) => `${'  '.repeat(depth)}- `,
        (name) => `**${name}/**`,
        markdownFile,
      );
    case 'text':
      return renderIndented(
        tree,
        (depth) => '  '.repeat(depth),
        (name) => `${name}/`,
        textFile,
      );
    case 'dot':
      return renderDot(tree);
    case 'mermaid':
      return renderMermaid(tree);
  }
}

function renderIndented(
  tree: ProjectTree,
  indent: (depth: number) => string,
  folderLabel: (name: string) => string,
  fileLabel: (name: string, file: TreeFile) => string,
): string {
  const lines: string[] = [];
  const filesByFolder = new Map<string, TreeFile[]>();
  for (const file of tree.files) {
    const folder = parentOf(file.path);
    const list = filesByFolder.get(folder);
    if (list === undefined) filesByFolder.set(folder, [file]);
    else list.push(file);
  }
  const subfolders = new Map<string, string[]>();
  for (const folder of tree.folders) {
    const parent = parentOf(folder);
    const list = subfolders.get(parent);
    if (list === undefined) subfolders.set(parent, [folder]);
    else list.push(folder);
  }
  const visit = (folder: string, depth: number) => {
    for (const child of subfolders.get(folder) ?? []) {
      lines.push(indent(depth) + folderLabel(nameOf(child)));
      visit(child, depth + 1);
    }
    for (const file of filesByFolder.get(folder) ?? [])
      lines.push(indent(depth) + fileLabel(nameOf(file.path), file));
  };
  visit('', 0);
  if (tree.truncated) lines.push(`… (${tree.file_count - tree.files.length} more files not shown)`);
  return lines.join('\n');
}

function markdownFile(name: string, file: TreeFile): string {
  const parts = [`\`${name}\``];
  if (file.language) parts.push(`(${file.language})`);
  if (file.dependencies.length > 0)
    parts.push(`→ ${file.dependencies.map((dependency) => `\`${dependency}\``).join(', ')}`);
  if (file.externals.length > 0) parts.push(`· packages: ${file.externals.join(', ')}`);
  return parts.join(' ');
}

function textFile(name: string, file: TreeFile): string {
  const parts = [name];
  if (file.dependencies.length > 0) parts.push(`-> ${file.dependencies.join(', ')}`);
  if (file.externals.length > 0) parts.push(`[${file.externals.join(', ')}]`);
  return parts.join(' ');
}

function renderDot(tree: ProjectTree): string {
  const lines = ['digraph project {', '  rankdir=LR;', '  node [shape=box];'];
  for (const file of tree.files) lines.push(`  ${JSON.stringify(file.path)};`);
  for (const file of tree.files) {
    for (const dependency of file.dependencies)
      lines.push(`  ${JSON.stringify(file.path)} -> ${JSON.stringify(dependency)};`);
  }
  lines.push('}');
  return lines.join('\n');
}

function renderMermaid(tree: ProjectTree): string {
  const ids = new Map<string, string>();
  const idOf = (path: string) => {
    let id = ids.get(path);
    if (id === undefined) {
      id = `f${ids.size}`;
      ids.set(path, id);
    }
    return id;
  };
  const lines = ['graph LR'];
  for (const file of tree.files) lines.push(`  ${idOf(file.path)}["${file.path.replace(/"/g, '#quot;')}"]`);
  for (const file of tree.files) {
    for (const dependency of file.dependencies) {
      if (ids.has(dependency)) lines.push(`  ${idOf(file.path)} --> ${idOf(dependency)}`);
    }
  }
  return lines.join('\n');
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
