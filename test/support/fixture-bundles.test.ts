// The fixture servers' bundles are whole: a bundle (with the chunks it loads) imports only Node's
// built-ins and dist/, so that no start reads a package from node_modules, and no module is left
// that it loads by a URL relative to itself (which would point into the cache, where it is not).
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO } from './cli.js';
import { BUNDLED_FIXTURES, DIST_EXTERNAL, fixtureProgram } from './fixture-bundles.js';

const DIST = pathToFileURL(path.join(REPO, 'dist')).href + '/';
// How rolldown writes a bundle's imports: `import … from "x";` or `import "x";` on a line of its own
// (and `export … from`), and `import("x")`.
const SPECIFIERS = /^(?:import|export)\b[^\n]*?(?:from\s*|import\s*)"([^"]+)";$|\bimport\("([^"]+)"\)/gm;

/** The modules `entry` loads (itself, and the chunks it imports, transitively) and what else they import. */
function graph(entry: string): { files: string[]; outside: string[] } {
  const files: string[] = [];
  const outside: string[] = [];
  const visit = (file: string) => {
    if (files.includes(file)) return;
    files.push(file);
    for (const [, line, dynamic] of readFileSync(file, 'utf8').matchAll(SPECIFIERS)) {
      const spec = (line ?? dynamic)!;
      if (spec.startsWith('./') || spec.startsWith('../')) visit(path.resolve(path.dirname(file), spec));
      else outside.push(spec);
    }
  };
  visit(entry);
  return { files, outside };
}

describe('fixture bundles', () => {
  it.each(BUNDLED_FIXTURES)('%s imports only built-ins and dist/, and nothing by a URL of its own', (fixture) => {
    const bundle = fixtureProgram(fixture);
    expect(bundle.startsWith(path.join(REPO, 'node_modules', '.cache'))).toBe(true);
    const { files, outside } = graph(bundle);
    expect(outside.filter((spec) => !isBuiltin(spec) && !spec.startsWith(DIST))).toEqual([]);
    for (const file of files) expect(readFileSync(file, 'utf8')).not.toMatch(/new URL\([^)]*import\.meta\.url\)/);
  });

  it('chaos-server takes its listen-drop module with it (imported by URL in the source)', () => {
    expect(graph(fixtureProgram('chaos-server.ts')).files.some((file) => path.basename(file).startsWith('chaos-listen'))).toBe(true);
  });

  it("the build keeps dist/ an import, and refuses a fixture's import of a local module outside test/fixtures (the cache's hash would not see it change)", () => {
    const fixture = path.join(REPO, 'test', 'fixtures', 'gateway-upstream.mjs');
    expect(DIST_EXTERNAL.resolveId('../../dist/api/index.js', fixture)).toEqual({ id: pathToFileURL(path.join(REPO, 'dist', 'api', 'index.js')).href, external: true });
    expect(DIST_EXTERNAL.resolveId('./event-store.mjs', fixture)).toBeNull();
    expect(() => DIST_EXTERNAL.resolveId('../../src/util/index.ts', fixture)).toThrow(/imports \.\.\/\.\.\/src\/util\/index\.ts, outside test\/fixtures and dist\//);
    expect(() => DIST_EXTERNAL.resolveId('../support/temp.ts', fixture)).toThrow(/outside test\/fixtures and dist\//);
  });
});
