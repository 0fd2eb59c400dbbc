// The commands change_impact gives for each runner, on small realistic projects generated here, and — where the
// runner is installed (node, pytest, go) — what the command runs: exactly the selected tests, no other. Maven and
// Gradle commands are asserted as text (running them needs their plugins from the network). Also `test_globs`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeChangeImpact } from '../src/core/changeImpact/changeImpact.js';
import { describeCodeState } from '../src/core/codeState.js';
import { ProjectIndex } from '../src/core/projectIndex.js';

function generate(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'test-commands-')));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

async function impactOf(root: string, files: string[], testGlobs?: string[]) {
  using index = new ProjectIndex(root);
  const project = await index.build();
  const state = await describeCodeState(undefined, project);
  return await analyzeChangeImpact(index, project, undefined, state, {
    files,
    bundleTokens: 0,
    ...(testGlobs === undefined ? {} : { testGlobs }),
  });
}

/**
 * Runs a command change_impact gave, with its leading `prefix` words replaced by `program` (the interpreter
 * this machine has, plus a flag that lists what the run selects); the rest are plain words (nothing to quote).
 */
function run(root: string, group: { cwd: string; command: string }, prefix: string, program: string[]) {
  expect(group.command.startsWith(`${prefix} `)).toBe(true);
  const [file, ...before] = program;
  const args = group.command.slice(prefix.length + 1).split(' ');
  const result = spawnSync(file as string, [...before, ...args], {
    cwd: path.join(root, group.cwd),
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  expect(result.status, `${group.command}: ${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

const have = (command: string, ...args: string[]) => spawnSync(command, args).status === 0;

describe('test commands', () => {
  it('node --test runs exactly the selected test files', async () => {
    const root = generate({
      'package.json': JSON.stringify({ name: 'n', type: 'module', scripts: { test: 'node --test' } }),
      'src/math.js': 'export const add = (a, b) => a + b;\n',
      'src/format.js': "import { add } from './math.js';\nexport const sum = (a, b) => String(add(a, b));\n",
      'src/other.js': 'export const other = 1;\n',
      'test/math.test.js':
        "import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/math.js';\ntest('math adds', () => assert.equal(add(1, 2), 3));\n",
      'test/format.test.js':
        "import test from 'node:test';\nimport assert from 'node:assert';\nimport { sum } from '../src/format.js';\ntest('format sums', () => assert.equal(sum(1, 2), '3'));\n",
      'test/other.test.js':
        "import test from 'node:test';\nimport { other } from '../src/other.js';\ntest('other runs', () => void other);\n",
    });
    const impact = await impactOf(root, ['src/math.js']);
    expect(impact.test_commands).toEqual([
      {
        runner: 'node',
        cwd: '.',
        command: 'node --test test/math.test.js test/format.test.js',
        files: ['test/math.test.js', 'test/format.test.js'],
      },
    ]);
    const [group] = impact.test_commands;
    const output = run(root, group!, 'node --test', [process.execPath, '--test', '--test-reporter=tap']);
    const ran = [...output.matchAll(/^ok \d+ - (.+)$/gm)].map((match) => match[1]).sort();
    expect(ran).toEqual(['format sums', 'math adds']);
  });

  it('test_globs replaces the default rules', async () => {
    const root = generate({
      'package.json': JSON.stringify({ name: 'g', type: 'module' }),
      'src/math.js': 'export const add = (a, b) => a + b;\n',
      'checks/math.check.js': "import { add } from '../src/math.js';\nvoid add;\n",
      'test/math.test.js': "import { add } from '../src/math.js';\nvoid add;\n",
    });
    const defaults = await impactOf(root, ['src/math.js']);
    expect(defaults.tests.map((test) => test.path)).toEqual(['test/math.test.js']);
    const globbed = await impactOf(root, ['src/math.js'], ['checks/**/*.check.js']);
    expect(globbed.tests.map((test) => test.path)).toEqual(['checks/math.check.js']);
    expect(globbed.test_commands.map((group) => group.command)).toEqual(['node --test checks/math.check.js']);
  });

  it.skipIf(!have('python3', '-m', 'pytest', '--version'))(
    'pytest collects exactly the selected test files',
    async () => {
      const root = generate({
        'pyproject.toml':
          '[project]\nname = "calc"\nversion = "0"\n\n[tool.pytest.ini_options]\npythonpath = ["."]\n',
        'calc/__init__.py': '',
        'calc/ops.py': 'def add(a, b):\n    return a + b\n',
        'calc/report.py': 'from calc.ops import add\n\n\ndef total(xs):\n    return sum(xs)\n',
        'calc/other.py': 'X = 1\n',
        'tests/test_ops.py': 'from calc.ops import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
        'tests/test_report.py':
          'from calc.report import total\n\n\ndef test_total():\n    assert total([1]) == 1\n',
        'tests/test_other.py': 'from calc.other import X\n\n\ndef test_other():\n    assert X\n',
      });
      const impact = await impactOf(root, ['calc/ops.py']);
      expect(impact.test_commands.map(({ runner, cwd, command }) => ({ runner, cwd, command }))).toEqual([
        { runner: 'pytest', cwd: '.', command: 'pytest tests/test_ops.py tests/test_report.py' },
      ]);
      const [group] = impact.test_commands;
      const output = run(root, group!, 'pytest', [
        'python3',
        '-m',
        'pytest',
        '-p',
        'no:cacheprovider',
        '--collect-only',
        '-q',
      ]);
      const collected = output.split('\n').filter((line) => line.includes('::'));
      expect(collected).toEqual(['tests/test_ops.py::test_add', 'tests/test_report.py::test_total']);
    },
  );

  it.skipIf(!have('go', 'version'))('go test runs exactly the selected packages', async () => {
    const test = (pkg: string, name: string) =>
      `package ${pkg}\n\nimport "testing"\n\nfunc ${name}(t *testing.T) {}\n`;
    const root = generate({
      'go.mod': 'module example.com/shop\n\ngo 1.19\n',
      'price/price.go': 'package price\n\nfunc Of(n int) int { return n * 2 }\n',
      'price/price_test.go': test('price', 'TestOf'),
      'cart/cart.go':
        'package cart\n\nimport "example.com/shop/price"\n\nfunc Total(n int) int { return price.Of(n) }\n',
      'cart/cart_test.go': test('cart', 'TestTotal'),
      'stock/stock.go': 'package stock\n\nconst N = 1\n',
      'stock/stock_test.go': test('stock', 'TestStock'),
    });
    const impact = await impactOf(root, ['price/price.go']);
    expect(impact.test_commands.map(({ runner, cwd, command }) => ({ runner, cwd, command }))).toEqual([
      { runner: 'go', cwd: '.', command: 'go test ./cart ./price' },
    ]);
    const [group] = impact.test_commands;
    // `go test -list .` names the tests each package's run would run, without running them.
    const output = run(root, group!, 'go test', ['go', 'test', '-list', '.']);
    const names = output.split('\n').filter((line) => /^Test/.test(line));
    expect(names.sort()).toEqual(['TestOf', 'TestTotal']);
  });

  it('mvn -Dtest names the test classes; JVM tests are found under src/test and by name', async () => {
    const root = generate({
      'pom.xml':
        '<project><modelVersion>4.0.0</modelVersion><groupId>a</groupId><artifactId>b</artifactId><version>1</version></project>\n',
      'src/main/java/com/acme/Calc.java':
        'package com.acme;\n\npublic class Calc {\n  public static int add(int a, int b) { return a + b; }\n}\n',
      'src/main/java/com/acme/Other.java': 'package com.acme;\n\npublic class Other {}\n',
      'src/test/java/com/acme/CalcTest.java':
        'package com.acme;\n\nclass CalcTest {\n  void adds() { Calc.add(1, 2); }\n}\n',
      'src/test/java/com/acme/CalcIT.java':
        'package com.acme;\n\nclass CalcIT {\n  void adds() { Calc.add(1, 2); }\n}\n',
      'src/test/java/com/acme/OtherTest.java': 'package com.acme;\n\nclass OtherTest {\n  Other o;\n}\n',
    });
    const impact = await impactOf(root, ['src/main/java/com/acme/Calc.java']);
    expect(impact.tests.map((t) => t.path).sort()).toEqual([
      'src/test/java/com/acme/CalcIT.java',
      'src/test/java/com/acme/CalcTest.java',
    ]);
    expect(impact.test_commands.map(({ runner, cwd, command }) => ({ runner, cwd, command }))).toEqual([
      {
        runner: 'maven',
        cwd: '.',
        command: expect.stringMatching(
          /^mvn test -Dtest=(CalcIT,CalcTest|CalcTest,CalcIT) -Dsurefire\.failIfNoSpecifiedTests=false$/,
        ),
      },
    ]);
  });

  it("gradle test --tests names the qualified test classes, from the subproject through the root build's gradlew", async () => {
    const root = generate({
      'settings.gradle.kts': 'rootProject.name = "shop"\ninclude("app")\n',
      gradlew: '#!/bin/sh\n',
      'app/build.gradle.kts': 'plugins { kotlin("jvm") }\n',
      'app/src/main/kotlin/shop/Price.kt': 'package shop\n\nfun priceOf(n: Int) = n * 2\n',
      'app/src/test/kotlin/shop/PriceTest.kt':
        'package shop\n\nclass PriceTest {\n  fun prices() = priceOf(1)\n}\n',
      'app/src/test/kotlin/shop/StockSpec.kt': 'package shop\n\nclass StockSpec\n',
    });
    const impact = await impactOf(root, ['app/src/main/kotlin/shop/Price.kt']);
    expect(impact.test_commands.map(({ runner, cwd, command }) => ({ runner, cwd, command }))).toEqual([
      { runner: 'gradle', cwd: 'app', command: '../gradlew test --tests shop.PriceTest' },
    ]);
  });
});
