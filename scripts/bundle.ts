// The build's second step (`npm run build`): tsc has compiled src/ into dist/, one module per
// source file, with the declarations. This bundles those modules, so that a command or a program
// loads a few files instead of a hundred (Node's loader spends CPU and about 20 KB of memory on
// every module it resolves, links and evaluates).
//
// The entries are every folder's public face (`dist/<folder>/index.js`, what other code and the
// tests import), the package's entries (`dist/api/*.js`) and the CLI (`dist/cli/main.js`); each is
// rewritten in place with the same exports, and the code they share goes to `dist/chunks/`. Dynamic
// imports stay dynamic (each its own chunk), so lazily loaded layers are still loaded on first use.
// The MCP SDK, zod and commander are bundled too (INLINED in bundle-options.ts); other packages stay
// external, resolved from node_modules, and Node's built-ins are taken with process.getBuiltinModule
// (builtinsByGetBuiltinModule there). The declarations (.d.ts) tsc wrote are kept as they are.
// The licences of the packages bundled go to dist/THIRD-PARTY-LICENSES.md (thirdPartyLicenses below).
import { globSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'rolldown';
import type * as Options from './bundle-options.js';

const DIST = path.resolve(import.meta.dirname, '..', 'dist');
// Loaded by its file name: Node runs this script with type stripping, which maps no `.js` to `.ts`.
const { builtinsByGetBuiltinModule, external, OUTPUT, youngHandlers } = (await import(new URL('./bundle-options.ts', import.meta.url).href)) as typeof Options;

function entries(): Record<string, string> {
  const files = [...globSync('**/index.js', { cwd: DIST }), ...globSync('api/*.js', { cwd: DIST }), 'cli/main.js'];
  return Object.fromEntries(files.map((f) => [f.slice(0, -'.js'.length), path.join(DIST, f)]));
}

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

/** The folder of the package a bundled module belongs to: its path up to the last `node_modules/<name>` (or `@scope/name`). */
const PACKAGE_DIR = /^.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+/;

/**
 * The notices the licences of the bundled packages ask to travel with their code (MIT, ISC, BSD,
 * Apache-2.0): each package's name, version, licence and licence file, in one Markdown file. Found
 * from the modules the build took in, so it lists exactly what is bundled; a package without a
 * licence file stops the build.
 */
async function thirdPartyLicenses(moduleIds: readonly string[]): Promise<string> {
  const dirs = [...new Set(moduleIds.flatMap((id) => PACKAGE_DIR.exec(id)?.[0] ?? []))];
  const sections: string[] = [];
  for (const dir of dirs) {
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
    const file = (await readdir(dir)).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
    if (!file) throw new Error(`${pkg.name} is bundled but has no licence file in ${dir}`);
    sections.push(`## ${pkg.name} ${pkg.version} (${pkg.license ?? 'see below'})\n\n\`\`\`\`text\n${(await readFile(path.join(dir, file), 'utf8')).trim()}\n\`\`\`\`\n`);
  }
  sections.sort();
  return `# Third-party licences\n\nswitchboard's build bundles these packages into dist/ (scripts/bundle.ts); their licences follow.\n\n${sections.join('\n')}`;
}

// Beside dist/ (a rename does not cross file systems); a build killed half-way leaves it, ignored by git.
const out = await mkdtemp(path.join(DIST, '..', '.bundle-'));
try {
  const { output } = await build({
    input: entries(),
    platform: 'node',
    external,
    plugins: [youngHandlers(), builtinsByGetBuiltinModule],
    logLevel: 'warn',
    output: { ...OUTPUT, dir: out, entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
  });
  await writeFile(path.join(out, 'THIRD-PARTY-LICENSES.md'), await thirdPartyLicenses(output.flatMap((o) => (o.type === 'chunk' ? o.moduleIds : []))));
  await removeCompiled(DIST);
  await moveInto(out, DIST);
} finally {
  await rm(out, { recursive: true, force: true });
}
// Node looks up the package scope of every module it loads: a 20-byte one is found first.
await writeFile(path.join(DIST, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
