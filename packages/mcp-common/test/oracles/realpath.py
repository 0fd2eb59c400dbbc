#!/usr/bin/env python3
"""The oracle for AllowedPaths.resolve: Python's own os.path.realpath (non-strict).

Reads a JSON object {"root": <real absolute root>, "paths": [<path as a client sends it>, ...]} on stdin and
writes a JSON list of answers: each path made absolute against the root, then resolved by os.path.realpath,
which walks it component by component, follows every link that exists, appends what is missing as written and
applies a `..` to what it has resolved so far (real directories and missing names alike) — the semantics
resolve documents. Nobody here wrote it; that is the point.
"""
import json
import os
import sys

request = json.load(sys.stdin)
root = request["root"]
answers = [os.path.realpath(os.path.join(root, given)) for given in request["paths"]]
json.dump(answers, sys.stdout)
