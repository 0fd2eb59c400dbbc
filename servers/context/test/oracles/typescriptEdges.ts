// The oracle for TS/JS edges: TypeScript's own resolver (ts.resolveModuleName, NodeNext, with the mode
// ts.getModeForUsageLocation gives each import) on the module specifiers of TypeScript's own syntax tree
// (imports, exports, import(), require(), import x = require(), `declare module "m"` augmentations in a
// module) and its `/// <reference path>` directives. (ts.preProcessFile would miss `export * as ns from`.) A .js/.mjs/.cjs importer is resolved as TypeScript resolves implementation files
// (`noDtsResolution`: no declaration files, no `types` condition); a .ts/.d.ts importer may get declarations.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const JS = /\.[cm]?jsx?$/;

/** `from\tto` lines (project-relative paths) for every importer in `files`, resolved into `files`. */
export function typeScriptEdges(root: string, files: readonly string[]): string[] {
  const inProject = new Set(files);
  // One cache per option set: results for declaration-taking importers must not leak to JavaScript ones.
  const caches = [false, true].map(() => ts.createModuleResolutionCache(root, (name) => name));
  const edges = new Set<string>();
  for (const file of files) {
    if (!/\.(?:[cm]?[jt]sx?)$/.test(file)) continue;
    const absolute = path.join(root, file);
    const isJs = JS.test(file);
    const options = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowJs: true,
      resolveJsonModule: true,
      noDtsResolution: isJs,
    } as ts.CompilerOptions;
    const cache = caches[isJs ? 1 : 0]!;
    const impliedNodeFormat = ts.getImpliedNodeFormatForFile(
      absolute,
      cache.getPackageJsonInfoCache(),
      ts.sys,
      options,
    );
    const source = ts.createSourceFile(
      absolute,
      readFileSync(absolute, 'utf8'),
      { languageVersion: ts.ScriptTarget.ESNext, impliedNodeFormat },
      true,
    );
    const add = (target: string | undefined) => {
      if (target === undefined) return;
      const relative = path.relative(root, target).split(path.sep).join('/');
      if (inProject.has(relative) && relative !== file) edges.add(`${file}\t${relative}`);
    };
    for (const specifier of moduleSpecifiers(source)) {
      const mode = ts.getModeForUsageLocation(source, specifier, options);
      const resolved = ts.resolveModuleName(
        specifier.text,
        absolute,
        options,
        ts.sys,
        cache,
        undefined,
        mode,
      );
      add(resolved.resolvedModule?.resolvedFileName);
    }
    for (const reference of source.referencedFiles)
      add(path.resolve(path.dirname(absolute), reference.fileName));
  }
  return [...edges].sort();
}

function moduleSpecifiers(source: ts.SourceFile): ts.StringLiteralLike[] {
  const found: ts.StringLiteralLike[] = [];
  const isModule = ts.isExternalModule(source);
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined
    ) {
      if (ts.isStringLiteralLike(node.moduleSpecifier)) found.push(node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      if (ts.isStringLiteralLike(node.moduleReference.expression))
        found.push(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const [argument] = node.arguments;
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if ((isImport || isRequire) && argument !== undefined && ts.isStringLiteralLike(argument))
        found.push(argument);
    } else if (
      isModule &&
      ts.isModuleDeclaration(node) &&
      ts.isStringLiteral(node.name) &&
      node.parent === source
    ) {
      found.push(node.name);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
