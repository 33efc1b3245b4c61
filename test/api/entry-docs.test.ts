// Every export of the package's entry points (the declarations package.json `exports` names,
// dist/api/*.d.ts, built from src/api/*.ts) carries TSDoc on its own declaration, so an editor shows
// it wherever the name is used. Read from the built declarations, what an editor reads (and a
// program of declarations costs a third less CPU to build than one of the sources). Types
// re-exported from the MCP SDK are documented by the SDK.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../support/mcp-server-harness.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, { types: string }> };

/** package.json `exports` types (`./dist/api/x.d.ts`). */
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object')
  .map(([subpath, target]) => ({ subpath, file: path.join(root, target.types) }));

function undocumented(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${file} has no exports`);
  const missing: string[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = symbol.declarations ?? [];
    if (declarations.length > 0 && declarations.every((d) => d.getSourceFile().fileName.includes('/node_modules/'))) continue;
    const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
    if (doc === '') missing.push(exported.name);
  }
  return missing;
}

beforeAll(requireBuild);

describe('the package entry points', () => {
  it('are the api layer entry files', () => {
    expect(entries.map((e) => e.subpath)).toEqual(['.', './agent', './gateway', './oauth']);
  });

  it('document every export on its declaration', () => {
    const program = ts.createProgram(
      entries.map((e) => e.file),
      {
        target: ts.ScriptTarget.ES2023,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
    );
    const missing: Record<string, string[]> = {};
    for (const entry of entries) {
      const names = undocumented(program, entry.file);
      if (names.length > 0) missing[entry.subpath] = names;
    }
    expect(missing).toEqual({});
  }, 60_000);
});
