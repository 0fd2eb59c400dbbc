# A pytest plugin (loaded with `-p pytest_loaded_modules`): once collection is done, prints the project's files
# among the modules Python has loaded — the test modules, their conftest.py files and everything they import,
# transitively — as one JSON line. test/recallPytest.test.ts runs pytest on one test file at a time with it.
import json
import os
import sys


def pytest_collection_finish(session):
    root = str(session.config.rootpath)
    files = set()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if not file:
            continue
        absolute = os.path.realpath(file)
        if absolute.startswith(root + os.sep):
            files.add(os.path.relpath(absolute, root).replace(os.sep, "/"))
    sys.stdout.write("GROUNDWORK-LOADED " + json.dumps(sorted(files)) + "\n")
