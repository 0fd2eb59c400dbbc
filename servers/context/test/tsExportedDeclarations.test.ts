// The exported declarations change_impact compares, against TypeScript's own checker: for every TS file of
// real packages' sources, the names the file's own declarations are exported under (symbolOutline's
// `exported` / `exportedAs`) equal the module's exports TypeScript finds (checker.getExportsOfModule), less
// what the file re-exports from elsewhere (`export … from`, and `export { x }` of an imported x), which are
// other files' declarations.
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { outlineSymbols } from '../src/core/symbolOutline.js';

function packageFolder(name: string): string {
  return realpathSync(fileURLToPath(new URL(`../node_modules/${name}`, import.meta.url)));
}

const IMPORTS = new Set([
  ts.SyntaxKind.ImportSpecifier,
  ts.SyntaxKind.ImportClause,
  ts.SyntaxKind.NamespaceImport,
  ts.SyntaxKind.ImportEqualsDeclaration,
]);

/** The names TypeScript's checker says the file's own declarations are exported under. */
function typeScriptExportedNames(file: string, text: string): string[] {
  const options: ts.CompilerOptions = { noResolve: true, noLib: true, allowJs: true, types: [] };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile;
  host.getSourceFile = (name, language) =>
    name === file ? ts.createSourceFile(file, text, language, true) : read.call(host, name, language);
  const program = ts.createProgram([file], options, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) return [];
  const names = new Set<string>();
  for (const exported of checker.getExportsOfModule(module)) {
    const own = (exported.declarations ?? []).some((declaration) => {
      if (declaration.getSourceFile() !== source || ts.isNamespaceExport(declaration)) return false;
      if (!ts.isExportSpecifier(declaration)) return true;
      if (declaration.parent.parent.moduleSpecifier !== undefined) return false;
      const local = checker.getExportSpecifierLocalTargetSymbol(declaration);
      return !(local?.declarations ?? []).some((target) => IMPORTS.has(target.kind));
    });
    if (own) names.add(exported.name);
  }
  return [...names].sort();
}

const CORPUS = [
  { name: 'zod', root: () => path.join(packageFolder('zod'), 'src'), minimum: 300 },
  { name: 'rxjs', root: () => path.join(packageFolder('rxjs'), 'src'), minimum: 250 },
];

describe('exported declarations equal TypeScript’s module exports', () => {
  for (const corpus of CORPUS) {
    it(`${corpus.name}: the same names for every file`, { timeout: 300_000 }, async () => {
      const root = corpus.root();
      const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
        (file) => /\.[cm]?ts$/.test(file) && !/\.d\.[cm]?ts$/.test(file),
      );
      expect(files.length).toBeGreaterThan(corpus.minimum);
      const differences: string[] = [];
      for (const file of files) {
        const text = readFileSync(path.join(root, file), 'utf8');
        const expected = typeScriptExportedNames(path.join(root, file), text);
        const outline = await outlineSymbols('typescript', file, text);
        const ours = [
          ...new Set(
            outline.flatMap((symbol) => (symbol.exported ? (symbol.exportedAs ?? [symbol.name]) : [])),
          ),
        ].sort();
        if (JSON.stringify(ours) !== JSON.stringify(expected))
          differences.push(`${file}: ours ${ours.join(', ')}; TypeScript ${expected.join(', ')}`);
      }
      expect(differences).toEqual([]);
    });
  }
});
