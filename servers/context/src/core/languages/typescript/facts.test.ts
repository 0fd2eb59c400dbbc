import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ImportRef } from '../sourceFacts.js';
import { extractTsImports, lexedImports, loadModuleLexer, loadOxcParser, parsedImports } from './facts.js';

const importsOf = async (source: string, fileName = 'a.ts') =>
  (await extractTsImports(fileName, source)).map((ref) => `${ref.kind} ${ref.specifier}`);

describe('TypeScript facts without the AST', () => {
  it('reads module augmentations at the top level, not in comments', async () => {
    const source = [
      "import { x } from './x.js';",
      '// declare module "./commented.js" {}',
      '/* declare module "./blocked.js" {} */',
      'declare module "./Context.js" {',
      '  interface Tag {}',
      '}',
      "export declare module './Other.js' {}",
    ].join('\n');
    expect(await importsOf(source)).toEqual(['static ./x.js', 'type ./Context.js', 'type ./Other.js']);
  });

  it('counts a script’s `declare module` as a declaration, not an import', async () => {
    expect(await importsOf('declare module "ambient" { export const a: number; }\n', 'a.d.ts')).toEqual([]);
  });

  it('reads `/// <reference path>` only before the first statement, after a hashbang and comments', async () => {
    const source = [
      '#!/usr/bin/env node',
      '/* licence */',
      '/// <reference path="./globals.d.ts" />',
      'export const a = 1;',
      '/// <reference path="./late.d.ts" />',
    ].join('\n');
    expect(await importsOf(source)).toEqual(['reference ./globals.d.ts']);
  });

  it('finds require() calls in code and ignores one written in a comment', async () => {
    expect(await importsOf("// require('./nope')\nconst a = require('./yes');\n", 'a.js')).toEqual([
      'require ./yes',
    ]);
    expect(await importsOf("/* require('./nope') */ export const a = 1;\n", 'a.js')).toEqual([]);
    expect(await importsOf("import fs = require('node:fs');\n")).toEqual(['require node:fs']);
  });
});

/** The real folder of a package the context server depends on (pnpm links it under node_modules). */
function packageFolder(name: string): string {
  return realpathSync(fileURLToPath(new URL(`../../../../node_modules/${name}`, import.meta.url)));
}

/** What resolution reads of an import: the specifier and whether it is a require, an import() or a path. */
function asResolved(refs: readonly ImportRef[]): string[] {
  const mode = (kind: ImportRef['kind']) =>
    kind === 'require' || kind === 'dynamic' || kind === 'reference' ? kind : 'import';
  return [...new Set(refs.map((ref) => `${mode(ref.kind)} ${ref.specifier}`))].sort();
}

describe('the module lexer against oxc-parser on real packages', () => {
  // Sources and builds of every shape: effect and zod's TypeScript sources (NodeNext `.js` specifiers, type-only
  // imports), rxjs's (extensionless), ESM and CommonJS builds with their declaration files, hono's JSX types.
  const packages = ['effect', 'rxjs', 'zod', 'hono', '@modelcontextprotocol/sdk', 'typescript', 'oxc-parser'];

  it('reads every file it answers for with the imports the parser reads', { timeout: 300_000 }, async () => {
    const lexer = await loadModuleLexer();
    const parser = await loadOxcParser();
    let lexed = 0;
    let files = 0;
    const differences: string[] = [];
    for (const name of packages) {
      const root = packageFolder(name);
      for (const relative of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
        if (!/\.[cm]?[jt]sx?$/.test(relative)) continue;
        const file = path.join(root, relative);
        if (!statSync(file).isFile() || statSync(file).size > 2_000_000) continue;
        const source = readFileSync(file, 'utf8');
        files++;
        const fromLexer = lexedImports(lexer, relative, source);
        if (fromLexer === undefined) continue;
        lexed++;
        const expected = asResolved(parsedImports(parser, relative, source));
        const actual = asResolved(fromLexer);
        if (JSON.stringify(actual) !== JSON.stringify(expected))
          differences.push(`${name}/${relative}: lexer ${actual.join(', ')}; parser ${expected.join(', ')}`);
      }
    }
    expect(differences).toEqual([]);
    // The parser is the fallback, not the rule: most files are read by the lexer.
    expect(files).toBeGreaterThan(3000);
    expect(lexed / files).toBeGreaterThan(0.8);
  });

  it('leaves to the parser what it does not report, and what it cannot read', async () => {
    const lexer = await loadModuleLexer();
    expect(
      lexedImports(lexer, 'a.tsx', 'import a from "./a";\nexport const A = () => <p>Don\'t</p>;\n'),
    ).toBe(undefined);
    expect(await importsOf('import a from "./a";\nexport const A = () => <p>Don\'t</p>;\n', 'a.js')).toEqual([
      'static ./a',
    ]);
    expect(
      await importsOf("export { a } from './a';\nexport * from './b';\nimport type { C } from './c';\n"),
    ).toEqual(['re-export ./a', 're-export ./b', 'type ./c']);
    // In a declaration file an import() is a type, as it is in a type position of a module.
    expect(await importsOf("export declare const p: import('./p').P;\n", 'a.d.ts')).toEqual([]);
    expect(await importsOf("const t: typeof import('./t') = x;\nawait import('./d');\n")).toEqual([
      'dynamic ./d',
    ]);
  });
});
