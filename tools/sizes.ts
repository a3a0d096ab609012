// `npx tsx tools/sizes.ts [min-file-lines] [min-function-lines]`: the files over ~500 lines and the
// functions over ~120 lines in src/, proxy/, protocol/ (tests, generated files and fixtures apart),
// the two size rules of the developers' guide, as a list to read, not a gate.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import ts from 'typescript';

const minFile = Number(process.argv[2] ?? 500);
const minFunction = Number(process.argv[3] ?? 120);
const files = execFileSync('git', ['ls-files', 'src', 'proxy', 'protocol', 'tools', 'bench'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts'));

const bigFiles: [string, number][] = [];
const bigFunctions: [string, string, number][] = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length;
  if (lines > minFile) bigFiles.push([file, lines]);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const visit = (node: ts.Node, owner: string): void => {
    let name: string | undefined;
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) name = node.name?.getText(source) ?? '(anonymous)';
    else if (ts.isConstructorDeclaration(node)) name = 'constructor';
    else if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isVariableDeclaration(node.parent)) name = node.parent.name.getText(source);
    else if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isPropertyAssignment(node.parent)) name = node.parent.name.getText(source);
    if (name) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const full = owner ? `${owner}.${name}` : name;
      if (end - start + 1 > minFunction) bigFunctions.push([file, full, end - start + 1]);
      ts.forEachChild(node, (c) => visit(c, full));
      return;
    }
    const cls = ts.isClassDeclaration(node) ? (node.name?.getText(source) ?? '') : owner;
    ts.forEachChild(node, (c) => visit(c, cls));
  };
  visit(source, '');
}
console.log(`files over ${minFile} lines:`);
for (const [f, n] of bigFiles.sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)}  ${f}`);
console.log(`functions over ${minFunction} lines:`);
for (const [f, name, n] of bigFunctions.sort((a, b) => b[2] - a[2])) console.log(`  ${String(n).padStart(5)}  ${f}  ${name}`);
