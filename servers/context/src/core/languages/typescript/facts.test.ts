import { describe, expect, it } from 'vitest';
import { extractTsImports, loadOxcParser } from './facts.js';

const importsOf = async (source: string, fileName = 'a.ts') =>
  extractTsImports(await loadOxcParser(), fileName, source).map((ref) => `${ref.kind} ${ref.specifier}`);

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
