# The oracle for a Python file's top-level declaration names: the standard library's `ast`. Functions and
# classes (decorated or not), and the name a top-level assignment binds when its first target is a plain name
# (`x = …`, `x: T = …`, `x: T`; not `a, b = …`, `a.b = …`, `x += …`). Prints {file: [names]} as JSON for
# every .py file under the folder given (relative paths, `/`-separated), names unique, in source order.
import ast
import json
import os
import sys

root = sys.argv[1]
result = {}
for folder, dirs, files in os.walk(root):
    dirs[:] = [d for d in dirs if d != "__pycache__"]
    for name in files:
        if not name.endswith(".py"):
            continue
        path = os.path.join(folder, name)
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read())
        names = []
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.append(node.name)
            elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                names.append(node.targets[0].id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.append(node.target.id)
        result[os.path.relpath(path, root).replace(os.sep, "/")] = list(dict.fromkeys(names))
json.dump(result, sys.stdout)
