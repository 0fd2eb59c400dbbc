// Small helpers over web-tree-sitter nodes shared by the language extractors.
import type { Node, TreeCursor } from 'web-tree-sitter';

export function namedChildren(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => child !== null);
}

export function childrenOfType(node: Node, type: string): Node[] {
  return namedChildren(node).filter((child) => child.type === type);
}

export function firstChildOfType(node: Node, type: string): Node | undefined {
  return namedChildren(node).find((child) => child.type === type);
}

/** The text of every node of one of `types` below `root`, deduplicated: the identifiers a file mentions. */
export function collectTexts(root: Node, types: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  forEachDescendant(root, (nodeType, cursor) => {
    if (types.has(nodeType)) found.add(cursor.nodeText);
  });
  return [...found];
}

/** Every node below `root` of one of `types`, in source order. */
export function descendantsOfType(root: Node, types: readonly string[]): Node[] {
  return root.descendantsOfType([...types]).filter((node): node is Node => node !== null);
}

function forEachDescendant(root: Node, visit: (nodeType: string, cursor: TreeCursor) => void): void {
  const cursor = root.walk();
  try {
    for (;;) {
      visit(cursor.nodeType, cursor);
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
      }
    }
  } finally {
    cursor.delete();
  }
}
