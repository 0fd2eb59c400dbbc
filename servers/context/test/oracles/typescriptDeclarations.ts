// The oracle for a TS/JS file's top-level declaration names: TypeScript's own parser (ts.createSourceFile).
// Functions (overloads once), classes, interfaces, type aliases, enums, namespaces and `declare module "m"`,
// each variable of a `var`/`let`/`const` statement declared by a plain name, and `default` for an anonymous
// default export (`export default <expression>`, an unnamed default function or class).
import ts from 'typescript';

export function typeScriptDeclarationNames(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
    } else if (ts.isExportAssignment(statement)) {
      if (!statement.isExportEquals) names.push('default');
    } else if (
      ts.isFunctionDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isEnumDeclaration(statement) ||
      ts.isModuleDeclaration(statement)
    ) {
      names.push(statement.name?.text ?? 'default');
    }
  }
  return [...new Set(names)];
}
