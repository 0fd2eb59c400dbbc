"""The oracle for Python edges: imports read with the standard library's `ast`, module names resolved to
files by Python's own path finder (importlib.machinery.PathFinder, with the root as the only path entry;
namespace packages included) and relative names by importlib.util.resolve_name.

An edge A -> B exists when A imports the module in B: `import a.b` names a.b; `from a.b import n` names the
submodule a.b.n when there is one, else a.b itself (as does `from a.b import *`). Modules without a file
(namespace packages) give no edge. Prints "A\\tB" lines, paths relative to the root, sorted.

Usage: python3 pyedges.py <root>
"""
import ast
import importlib.machinery
import importlib.util
import os
import sys

root = os.path.realpath(sys.argv[1])
SKIPPED = {'__pycache__', '.git', 'node_modules', 'build', 'dist', 'venv', '.venv', 'site-packages'}
specs = {}


def origin(name):
    """The file of module `name` under the root, or None (missing, namespace package, outside)."""
    if name in specs:
        return specs[name]
    found = None
    parts = name.split('.')
    search = [root]
    try:
        for index in range(len(parts)):
            spec = importlib.machinery.PathFinder.find_spec('.'.join(parts[: index + 1]), search)
            if spec is None:
                break
            if index == len(parts) - 1:
                found = spec.origin if spec.has_location else None
            else:
                if not spec.submodule_search_locations:
                    break
                search = list(spec.submodule_search_locations)
    except (ImportError, ValueError):
        found = None
    if found is not None and not os.path.realpath(found).startswith(root + os.sep):
        found = None
    specs[name] = found
    return found


def package_of(relative):
    parts = relative[:-3].split('/')
    if parts[-1] == '__init__':
        return '.'.join(parts[:-1])
    return '.'.join(parts[:-1])


edges = set()
for folder, subfolders, files in os.walk(root):
    subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED and not d.startswith('.'))
    for name in files:
        if not name.endswith('.py'):
            continue
        path = os.path.join(folder, name)
        relative = os.path.relpath(path, root).replace(os.sep, '/')
        try:
            tree = ast.parse(open(path, 'rb').read(), filename=path)
        except (SyntaxError, ValueError):
            continue
        targets = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets.extend(origin(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                try:
                    base = importlib.util.resolve_name('.' * node.level + (node.module or ''), package_of(relative)) if node.level else node.module
                except (ImportError, ValueError):
                    continue
                if base is None:
                    continue
                needs_module = False
                for alias in node.names:
                    submodule = origin(f'{base}.{alias.name}') if alias.name != '*' else None
                    if submodule is not None:
                        targets.append(submodule)
                    else:
                        needs_module = True
                if needs_module:
                    targets.append(origin(base))
        for target in targets:
            if target is None or not target.endswith(('.py', '.pyi')):
                continue
            target_relative = os.path.relpath(os.path.realpath(target), root).replace(os.sep, '/')
            if target_relative != relative:
                edges.add(f'{relative}\t{target_relative}')

print('\n'.join(sorted(edges)))
