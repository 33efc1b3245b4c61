// The import graph of src/ as TypeScript reads it: which file imports which, at run time (type-only
// imports and exports aside) or at all, for the checks on layers and cycles.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const SRC = path.resolve(import.meta.dirname, '..', '..', 'src');

export interface Import {
  /** The imported file, relative to src/ (`mcp/index.ts`). */
  to: string;
  /** Evaluated when the importer loads: not type-only, not a dynamic import(). */
  runtime: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** Whether an import or export declaration brings in a value (some named binding not marked `type`, or a side effect). */
function bringsValues(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return true; // import './x.js': run for its effects
    if (clause.isTypeOnly) return false;
    if (clause.name) return true;
    const bindings = clause.namedBindings;
    if (!bindings || ts.isNamespaceImport(bindings)) return true;
    return bindings.elements.some((e) => !e.isTypeOnly);
  }
  if (node.isTypeOnly) return false;
  const clause = node.exportClause;
  if (!clause || ts.isNamespaceExport(clause)) return true;
  return clause.elements.some((e) => !e.isTypeOnly);
}

/** Every file of src/ (relative path) with what it imports from src/. */
export function importGraph(): Map<string, Import[]> {
  const graph = new Map<string, Import[]>();
  for (const file of sourceFiles(SRC)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const imports: Import[] = [];
    const add = (spec: string, runtime: boolean) => {
      if (!spec.startsWith('.')) return;
      const to = path.relative(SRC, path.resolve(path.dirname(file), spec)).replace(/\.js$/, '.ts');
      if (!to.startsWith('..')) imports.push({ to, runtime });
    };
    const visit = (node: ts.Node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, bringsValues(node));
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
        add(node.arguments[0].text, false);
      }
      node.forEachChild(visit);
    };
    visit(source);
    graph.set(path.relative(SRC, file), imports);
  }
  return graph;
}

/** The layer a src/ file belongs to: its first folder. */
export function layerOf(file: string): string {
  return file.split(path.sep)[0]!;
}

/** The groups of files that import each other in a loop at run time (Tarjan's strongly connected components of two or more). */
export function runtimeCycles(graph: Map<string, Import[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const { to, runtime } of graph.get(v) ?? []) {
      if (!runtime || !graph.has(to)) continue;
      if (!index.has(to)) {
        connect(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(v, Math.min(low.get(v)!, index.get(to)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return cycles;
}
