# The oracle for a Python module's exported declarations: the standard library's `ast`. Module-level
# def/class (decorators included) and assignments to plain names (`x = …`, `x: T = …`, `a = b = …`), also
# inside module-level if/elif/else, try/except/else/finally and with blocks. Exported: the names a literal
# `__all__` lists (`__all__ = [...]`/`(...)`, `__all__ += [...]`) when the module has one and no other
# binding of it, else those without a leading underscore. Prints {file: {name: ast.dump of every binding}}
# as JSON for the files given (relative to the folder given first), null for a file ast cannot parse.
import ast
import json
import os
import sys


def bindings(body, out):
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append((node.name, node))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out.append((target.id, node))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.append((node.target.id, node))
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == "__all__":
            out.append(("__all__+=", node))
        elif isinstance(node, ast.If):
            bindings(node.body, out)
            bindings(node.orelse, out)
        elif isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            bindings(node.body, out)
            for handler in node.handlers:
                bindings(handler.body, out)
            bindings(node.orelse, out)
            bindings(node.finalbody, out)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            bindings(node.body, out)


def literal_names(value):
    try:
        names = ast.literal_eval(value)
    except Exception:
        return None
    if isinstance(value, (ast.List, ast.Tuple)) and all(isinstance(name, str) for name in names):
        return list(names)
    return None


def exported(source):
    found = []
    bindings(ast.parse(source).body, found)
    listed, dynamic = None, False
    for name, node in found:
        if name == "__all__" or name == "__all__+=":
            if name == "__all__+=" and not isinstance(node.op, ast.Add):
                dynamic = True
                continue
            names = literal_names(node.value) if node.value is not None else None
            if names is None:
                dynamic = True
            elif name == "__all__":
                listed = names
            else:
                listed = (listed or []) + names
    result = {}
    for name, node in found:
        if name == "__all__+=":
            continue
        public = name in listed if listed is not None and not dynamic else not name.startswith("_")
        if public:
            text = ast.dump(node)
            result[name] = result[name] + "\n" + text if name in result else text
    return result


root = sys.argv[1]
answer = {}
for file in sys.argv[2:]:
    with open(os.path.join(root, file), "rb") as handle:
        source = handle.read()
    try:
        answer[file] = exported(source)
    except SyntaxError:
        answer[file] = None
json.dump(answer, sys.stdout)
