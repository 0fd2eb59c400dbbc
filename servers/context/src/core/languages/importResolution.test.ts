import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProjectIndex } from '../projectIndex.js';
import { fixtureRoot } from '../testFixtures.js';

async function graphOf(fixture: string) {
  using built = new ProjectIndex(fixtureRoot(fixture));
  const { graph } = await built.build();
  return (file: string) => {
    const entry = graph.files.get(file);
    if (entry === undefined) throw new Error(`fixture has no ${file}`);
    return entry;
  };
}

describe('TypeScript and JavaScript resolution', () => {
  it('resolves tsconfig paths (through extends), NodeNext .js specifiers, index files and dynamic imports', async () => {
    const file = await graphOf('ts-app');
    expect(file('src/main.ts').dependencies).toEqual([
      'src/lazy.ts', // await import('../lazy.js')
      'src/lib/greet.ts', // '@lib/greet' via paths in tsconfig.base.json
      'src/types.ts', // import type … from '../types.js'
      'src/utils/index.ts', // './utils' → index file
    ]);
  });

  it('records bare third-party imports and builtins as externals without following them', async () => {
    const file = await graphOf('ts-app');
    expect(file('src/main.ts').externals).toEqual(['node:fs', 'zod']);
  });

  it('follows barrels: export * and export { … } from', async () => {
    const file = await graphOf('ts-app');
    expect(file('src/utils/index.ts').dependencies).toEqual(['src/utils/math.ts', 'src/utils/strings.ts']);
  });

  it('follows require() and import x = require()', async () => {
    const file = await graphOf('ts-app');
    expect(file('src/cjs/loader.cjs').dependencies).toEqual(['src/cjs/helper.cjs']);
    expect(file('src/legacy.ts').dependencies).toEqual(['src/types.ts']);
  });

  it('resolves workspace packages by path: exports subpaths, imports (#internal), build output mapped to sources', async () => {
    const file = await graphOf('workspace');
    expect(file('packages/app/src/main.ts').dependencies).toEqual([
      'packages/built/src/index.ts', // exports ./dist/index.js, which does not exist → src/index.ts
      'packages/core/src/feature.ts', // '@ws/core/feature'
      'packages/core/src/index.ts', // '@ws/core'
      'packages/ui/src/button/primary.ts', // "./button/*" → ./build/types/button/*.d.ts, tsconfig declarationDir → src
    ]);
    expect(file('packages/app/src/main.ts').externals).toEqual(['lodash']);
    expect(file('packages/core/src/index.ts').dependencies).toEqual(['packages/core/src/internal.ts']);
  });
});

describe('TS/JS resolution by importer kind, jsconfig and triple-slash references', () => {
  it('maps `imports` wildcards into build output back to sources', async () => {
    const file = await graphOf('workspace');
    expect(file('packages/ui/src/button/primary.ts').dependencies).toEqual([
      'packages/ui/src/internal/tokens.ts',
    ]);
  });

  it('resolves a .js importer to JavaScript and a .ts importer to the declarations beside it', async () => {
    const file = await graphOf('js-app');
    expect(file('src/main.js').dependencies).toContain('src/lib/helper.js');
    expect(file('src/lib/typed.ts').dependencies).toEqual(['src/lib/helper.d.ts']);
  });

  it('follows jsconfig.json paths and `/// <reference path>`, and reports what it cannot resolve', async () => {
    using built = new ProjectIndex(fixtureRoot('js-app'));
    const { graph } = await built.build();
    expect(graph.files.get('src/main.js')?.dependencies).toEqual(['src/globals.d.ts', 'src/lib/helper.js']);
    expect(graph.files.get('src/main.js')?.externals).toEqual([]);
    expect(graph.unresolved.samples).toEqual([{ file: 'src/main.js', specifier: './missing.js' }]);
  });
});

describe('Python resolution', () => {
  it('resolves absolute imports to modules and packages, and `from pkg import sub` to the submodule', async () => {
    const file = await graphOf('python-app');
    expect(file('main.py').dependencies).toEqual(['shop/billing/__init__.py', 'shop/models.py']);
    expect(file('main.py').externals).toEqual(['json', 'requests']);
  });

  it('resolves relative imports: `from . import x`, `from ..m import y`, `from .m import z`', async () => {
    const file = await graphOf('python-app');
    expect(file('shop/billing/invoice.py').dependencies).toEqual(['shop/billing/tax.py', 'shop/models.py']);
    expect(file('shop/billing/__init__.py').dependencies).toEqual(['shop/billing/invoice.py']);
  });
});

describe('Python namespace packages and unresolved relative imports', () => {
  it('resolves through folders without __init__.py and reports a relative import that names nothing', async () => {
    using built = new ProjectIndex(fixtureRoot('python-ns'));
    const { graph } = await built.build();
    expect(graph.files.get('app.py')?.dependencies).toEqual([
      'plugins/formats/csv_export.py',
      'plugins/formats/json_export.py',
      'plugins/registry.py',
    ]);
    expect(graph.files.get('app.py')?.externals).toEqual([]);
    expect(graph.unresolved).toEqual({ count: 1, samples: [{ file: 'app.py', specifier: '.settings' }] });
  });
});

describe('Java, Kotlin and Scala resolution', () => {
  it('links imports and same-package references (no import needed) to the declaring files', async () => {
    const file = await graphOf('jvm-app');
    expect(file('src/main/java/com/acme/App.java').dependencies).toEqual([
      'src/main/java/com/acme/Helper.java', // same package, no import
      'src/main/java/com/acme/util/Strings.java',
    ]);
    expect(file('src/main/java/com/acme/App.java').externals).toEqual(['java.util']);
  });

  it('leaves out same-package classes a file never mentions', async () => {
    const file = await graphOf('jvm-app');
    expect(file('src/main/java/com/acme/App.java').dependencies).not.toContain(
      'src/main/java/com/acme/Unused.java',
    );
  });

  it('resolves Kotlin top-level function imports and wildcard imports by the names used', async () => {
    const file = await graphOf('jvm-app');
    expect(file('src/main/kotlin/com/acme/Greeter.kt').dependencies).toEqual([
      'src/main/java/com/acme/Helper.java',
      'src/main/java/com/acme/util/Strings.java',
      'src/main/kotlin/com/acme/text/Shout.kt',
    ]);
  });

  it('resolves Scala selector imports across languages', async () => {
    const file = await graphOf('jvm-app');
    expect(file('src/main/scala/com/acme/report/Report.scala').dependencies).toEqual([
      'src/main/java/com/acme/Helper.java',
      'src/main/kotlin/com/acme/Greeter.kt',
    ]);
    expect(file('src/main/scala/com/acme/report/Report.scala').externals).toEqual([
      'scala.collection.mutable',
    ]);
  });
});

describe('JVM names without an import', () => {
  it('links a fully-qualified Java name to its declaring file', async () => {
    const file = await graphOf('jvm-app');
    expect(file('src/main/java/com/acme/other/Fqn.java').dependencies).toEqual([
      'src/main/java/com/acme/util/Strings.java',
    ]);
  });

  it('sees Scala package-object members and the packages of chained package clauses', async () => {
    const file = await graphOf('jvm-app');
    expect(file('src/main/scala/com/acme/report/util/Loud.scala').dependencies).toEqual([
      'src/main/java/com/acme/Helper.java', // `package com.acme` then `package report.util`
      'src/main/scala/com/acme/report/util/package.scala', // package object util { def shout }
    ]);
  });
});

describe('Go resolution', () => {
  it('resolves a module import (go.mod path) to the package folder file declaring what is used', async () => {
    const file = await graphOf('go-app');
    expect(file('cmd/shop/main.go').dependencies).toEqual(['internal/cart/cart.go']);
    expect(file('cmd/shop/main.go').externals).toEqual(['fmt']);
  });

  it('links files of one package through package-level names, and a type to the files declaring its methods', async () => {
    const file = await graphOf('go-app');
    // empty() in items.go; Cart's methods String and Total in format.go and total.go.
    expect(file('internal/cart/cart.go').dependencies).toEqual([
      'internal/cart/format.go',
      'internal/cart/items.go',
      'internal/cart/total.go',
    ]);
    expect(file('internal/cart/total.go').dependencies).toEqual([
      'internal/cart/cart.go',
      'internal/cart/format.go',
    ]);
  });

  it('does not take `_`, locals, parameters or selectors on values for package-level names', async () => {
    const file = await graphOf('go-app');
    // format.go: `var _`, a local `empty`, a local `Total`, a parameter `New`, `c.Items`.
    expect(file('internal/cart/format.go').dependencies).toEqual([
      'internal/cart/cart.go',
      'internal/cart/total.go',
    ]);
  });

  it('keeps _test.go files as their own nodes: test helpers link tests, non-test files never see them', async () => {
    const file = await graphOf('go-app');
    expect(file('internal/cart/total_test.go').dependencies).toEqual(['internal/cart/helpers_test.go']);
    expect(file('internal/cart/cart_test.go').dependencies).toEqual(['internal/cart/cart.go']);
    expect(file('internal/cart/cart.go').dependencies).not.toContain('internal/cart/helpers_test.go');
  });

  it('never links files whose build constraints exclude each other', async () => {
    const file = await graphOf('go-app');
    // platform() is declared in watch_js.go (js, by its name) and watch_other.go (!js).
    expect(file('internal/cart/watch_other.go').dependencies).toEqual([]);
  });
});

describe('imports into folders the scan leaves out', () => {
  it('reports them as excluded with the folder, apart from unresolved ones', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'excluded-')));
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'x', type: 'module', imports: { '#ansi': './vendor/ansi.js' } }),
      '.gitignore': 'generated/\n',
      'src/a.js':
        "import a from '#ansi';\nimport b from '../vendor/util.js';\nimport c from '../generated/table.js';\nimport d from './missing.js';\nimport e from './b.js';\n",
      'src/b.js': 'export default 1;\n',
      'vendor/ansi.js': 'export default 1;\n',
      'vendor/util.js': 'export default 1;\n',
      'generated/table.js': 'export default 1;\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    using index = new ProjectIndex(root);
    const { graph } = await index.build();
    rmSync(root, { recursive: true, force: true });
    expect(graph.files.get('src/a.js')?.dependencies).toEqual(['src/b.js']);
    expect(graph.unresolved.samples).toEqual([{ file: 'src/a.js', specifier: './missing.js' }]);
    expect(graph.excluded).toEqual({
      count: 3,
      folders: [
        { folder: 'vendor', imports: 2 },
        { folder: 'generated', imports: 1 },
      ],
      samples: [
        { file: 'src/a.js', specifier: '#ansi', target: 'vendor/ansi.js' },
        { file: 'src/a.js', specifier: '../vendor/util.js', target: 'vendor/util.js' },
        { file: 'src/a.js', specifier: '../generated/table.js', target: 'generated/table.js' },
      ],
    });
  });
});
