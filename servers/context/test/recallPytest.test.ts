// Recall against pytest and Python's own import system: on Debian's sources of requests and the packages it
// pulls in (scripts/ci/apt/context.txt) plus a small package and tests written here (relative imports,
// re-exports, a conftest.py that imports a helper, an import inside a test function), pytest collects the
// tests (`pytest --collect-only -q`), then collects each test file alone with a plugin
// (test/oracles/pytest_loaded_modules.py) that lists the project files Python loaded for it. For a changed
// module, every test file whose collection loaded it must be in change_impact's `tests` (100 % recall).
// (certifi stays out of the changes: pytest itself may load the interpreter's own certifi first.) Precision is
// printed; the extra edges are imports inside functions, which collection does not run (named below).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeChangeImpact } from '../src/core/changeImpact/changeImpact.js';
import { describeCodeState } from '../src/core/codeState.js';
import { ProjectIndex } from '../src/core/projectIndex.js';

const DIST_PACKAGES = '/usr/lib/python3/dist-packages';
const CORPUS = ['requests', 'urllib3', 'idna', 'certifi', 'charset_normalizer', 'chardet'];
const oracles = fileURLToPath(new URL('./oracles', import.meta.url));
const havePytest = spawnSync('python3', ['-m', 'pytest', '--version']).status === 0;
const haveCorpus = CORPUS.every((module) => existsSync(path.join(DIST_PACKAGES, module)));
if ((!havePytest || !haveCorpus) && process.env.CI) {
  throw new Error('CI must install python3-pytest and python3-requests (scripts/ci/apt/context.txt)');
}

const WRITTEN: Record<string, string> = {
  'pytest.ini': '[pytest]\ntestpaths = tests\npythonpath = .\n',
  'app/__init__.py': 'from .core import Client\nfrom . import formats\n',
  'app/core.py':
    'from .helpers import slug\n\n\nclass Client:\n    def name(self):\n        return slug("x")\n',
  'app/helpers.py': 'def slug(text):\n    return text.lower()\n',
  'app/formats/__init__.py': '',
  'app/formats/json_format.py':
    'import json\nfrom ..helpers import slug\n\n\ndef dump(value):\n    return json.dumps(slug(value))\n',
  'app/formats/http.py':
    'from requests.structures import CaseInsensitiveDict\n\nHEADERS = CaseInsensitiveDict()\n',
  'app/standalone.py': 'VALUE = 1\n',
  'tests/conftest.py':
    'import pytest\nfrom app.helpers import slug\n\n\n@pytest.fixture\ndef slugged():\n    return slug("A")\n',
  'tests/test_client.py':
    'from app import Client\n\n\ndef test_client():\n    assert Client().name() == "x"\n',
  'tests/test_json.py':
    'from app.formats.json_format import dump\n\n\ndef test_dump():\n    assert dump("A") == \'"a"\'\n',
  'tests/test_http.py':
    'from app.formats import http\n\n\ndef test_headers():\n    assert len(http.HEADERS) == 0\n',
  'tests/test_auth.py':
    'from requests import auth\n\n\ndef test_auth():\n    assert auth.HTTPBasicAuth("a", "b")\n',
  'tests/test_retry.py':
    'import urllib3.util.retry\n\n\ndef test_retry():\n    assert urllib3.util.retry.Retry(3)\n',
  'tests/test_idna.py': 'from idna.core import encode\n\n\ndef test_encode():\n    assert encode("a")\n',
  'tests/unit/test_standalone.py':
    'from app import standalone\n\n\ndef test_value(slugged):\n    assert standalone.VALUE == 1\n',
  'tests/unit/test_lazy.py':
    'def test_lazy():\n    from charset_normalizer import from_bytes\n\n    assert from_bytes(b"a")\n',
};

const CHANGED = [
  'app/helpers.py',
  'app/core.py',
  'app/standalone.py',
  'app/formats/http.py',
  'app/__init__.py',
  'tests/conftest.py',
  'requests/auth.py',
  'requests/structures.py',
  'urllib3/util/retry.py',
  'urllib3/exceptions.py',
  'idna/idnadata.py',
  'charset_normalizer/api.py',
  'chardet/universaldetector.py',
];

function pytest(root: string, ...args: string[]): string {
  const run = spawnSync('python3', ['-m', 'pytest', '-p', 'no:cacheprovider', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: oracles, PYTHONDONTWRITEBYTECODE: '1' },
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`pytest ${args.join(' ')} failed: ${run.stdout}${run.stderr}`);
  return run.stdout;
}

describe.skipIf(!havePytest || !haveCorpus)('change_impact recall against pytest collection', () => {
  let root: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'recall-pytest-')));
    for (const module of CORPUS)
      cpSync(path.join(DIST_PACKAGES, module), path.join(root, module), {
        recursive: true,
        filter: (source) => !source.includes('__pycache__'),
      });
    for (const [file, text] of Object.entries(WRITTEN)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('selects every test file whose collection loads the changed module', { timeout: 300_000 }, async () => {
    const collected = [
      ...new Set(
        pytest(root, '--collect-only', '-q')
          .split('\n')
          .filter((line) => line.includes('::'))
          .map((line) => line.slice(0, line.indexOf('::'))),
      ),
    ].sort();
    expect(collected.length).toBe(8);
    const loaded = new Map<string, string[]>();
    for (const test of collected) {
      const line = pytest(root, '--collect-only', '-q', '-p', 'pytest_loaded_modules', test)
        .split('\n')
        .find((entry) => entry.startsWith('GROUNDWORK-LOADED '));
      loaded.set(test, JSON.parse(line!.slice('GROUNDWORK-LOADED '.length)) as string[]);
    }

    using index = new ProjectIndex(root);
    const project = await index.build();
    const state = await describeCodeState(undefined, project);
    let theirs = 0;
    let ours = 0;
    const extras = new Set<string>();
    for (const changed of CHANGED) {
      const expected = collected.filter((test) => loaded.get(test)?.includes(changed));
      const impact = await analyzeChangeImpact(index, project, undefined, state, {
        files: [changed],
        bundleTokens: 0,
      });
      const mine = impact.tests.map((test) => test.path);
      expect(impact.tests.every((test) => test.runner === 'pytest')).toBe(true);
      expect({ changed, missing: expected.filter((test) => !mine.includes(test)) }).toEqual({
        changed,
        missing: [],
      });
      for (const test of mine) if (!expected.includes(test)) extras.add(`${changed} → ${test}`);
      theirs += expected.length;
      ours += mine.length;
    }
    expect(theirs).toBeGreaterThan(20);
    // What we add is an import collection does not run: test_lazy.py imports charset_normalizer inside its
    // test function, urllib3's util/url.py imports idna inside `_idna_encode`.
    expect(
      [...extras].filter(
        (extra) => !extra.endsWith(' → tests/unit/test_lazy.py') && !extra.startsWith('idna/'),
      ),
    ).toEqual([]);
    process.stderr.write(
      `pytest: recall 100%, precision ${theirs}/${ours}; extra: ${[...extras].join(', ')}\n`,
    );
  });
});
