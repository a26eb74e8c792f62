import fs from "node:fs";
import ts from "typescript";

/**
 * Every module specifier a file names: import/export … from, import(),
 * require(). With `valuesOnly`, `import type` / `export type` are left out
 * (they are erased and load nothing at run time).
 */
export function moduleSpecifiers(file: string, { valuesOnly = false } = {}): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly;
      if (ts.isStringLiteral(node.moduleSpecifier) && !(valuesOnly && typeOnly)) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require")) &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
