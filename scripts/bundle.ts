// The build's second step (`npm run build`): tsc has compiled src/ into dist/, one module per
// source file, with the declarations. This bundles those modules, so that a command or a program
// loads a few files instead of a hundred (Node's loader spends CPU and about 20 KB of memory on
// every module it resolves, links and evaluates; the MCP SDK's packages ship bundled too).
//
// The entries are every folder's public face (`dist/<folder>/index.js`, what other code and the
// tests import), the package's entries (`dist/api/*.js`) and the CLI (`dist/cli/main.js`); each is
// rewritten in place with the same exports, and the code they share goes to `dist/chunks/`. Dynamic
// imports stay dynamic (each its own chunk), so lazily loaded layers are still loaded on first use.
// Packages and Node's built-ins stay external: they resolve from node_modules as before. The
// declarations (.d.ts) tsc wrote are kept as they are.
import { globSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'rolldown';

const DIST = path.resolve(import.meta.dirname, '..', 'dist');

function entries(): Record<string, string> {
  const files = [...globSync('**/index.js', { cwd: DIST }), ...globSync('api/*.js', { cwd: DIST }), 'cli/main.js'];
  return Object.fromEntries(files.map((f) => [f.slice(0, -'.js'.length), path.join(DIST, f)]));
}

/**
 * Packages only our config layer uses, bundled into its chunk: about 20 modules less to load. The
 * MCP SDK, zod's v4 (which the SDK shares) and the rest stay packages.
 */
const INLINED = new Set(['smol-toml', 'zod/v3']);

/** A bare specifier (a package, or a Node built-in) stays an import; our own modules are bundled. */
const external = (id: string) => !id.startsWith('.') && !path.isAbsolute(id) && !INLINED.has(id);

/** Every compiled module and its source map (this build's, and an earlier build's chunks), not the declarations. */
async function removeCompiled(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await removeCompiled(file);
    else if (entry.name.endsWith('.js') || entry.name.endsWith('.js.map')) await rm(file);
  }
}

/** Moves every file of `from` to the same place under `to`, creating folders as needed. */
async function moveInto(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      await mkdir(target, { recursive: true });
      await moveInto(source, target);
    } else {
      await rename(source, target);
    }
  }
}

// Beside dist/ (a rename does not cross file systems); a build killed half-way leaves it, ignored by git.
const out = await mkdtemp(path.join(DIST, '..', '.bundle-'));
try {
  await build({
    input: entries(),
    platform: 'node',
    external,
    logLevel: 'warn',
    output: { dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: false, comments: { jsdoc: false }, charset: 'ascii' },
  });
  await removeCompiled(DIST);
  await moveInto(out, DIST);
} finally {
  await rm(out, { recursive: true, force: true });
}
// Node looks up the package scope of every module it loads: a 20-byte one is found first.
await writeFile(path.join(DIST, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
