// The fixture servers tests spawn as processes, run from bundles: each entry (its local imports, the
// MCP SDK v1 or v2, zod) built into one file, so that a start loads one module instead of hundreds
// from node_modules. A bundle is the SDK's own code, so these are still real SDK servers; what users
// install and run as packages (@modelcontextprotocol/server-everything, server-filesystem) is not
// bundled. Modules tests import in-process stay the sources.
//
// Cached on disk under node_modules/.cache/switchboard-fixtures/<hash>/, the hash over every file of
// test/fixtures, npm's record of the installed packages and this file: a changed fixture or package
// builds anew, an unchanged one builds nothing. vitest's globalSetup (this module's `setup`) builds
// before the workers start; a test run some other way builds on first use. Forced by deleting the
// folder; SWITCHBOARD_FIXTURE_SOURCES=1 runs the sources instead (stack traces with their own lines).
//
// Run by Node with type stripping (`node test/support/fixture-bundles.ts`) to build: a worker that
// finds no bundle builds in a child, so that the constants naming fixtures stay synchronous.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Options from '../../scripts/bundle-options.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(REPO, 'test', 'fixtures');
const DIST = path.join(REPO, 'dist');
const CACHE = path.join(REPO, 'node_modules', '.cache', 'switchboard-fixtures');
// Written last, so that a folder without it is a build that did not finish.
const DONE = 'complete';

/** The entries bundled (paths under test/fixtures): the fixture servers tests start as processes. */
export const BUNDLED_FIXTURES = [
  'mcp/manager-server.mjs',
  'mcp/stdio-v2-server.mjs',
  'mcp/stdio-v1-server.mjs',
  'mcp/stdio-exit-on-probe-server.mjs',
  'gateway-upstream.mjs',
  'task-upstream.mjs',
  'traced-upstream.mjs',
  'oauth-refresh-child.mjs',
  'chaos-server.ts',
];

/**
 * The program to spawn for a fixture (a path under test/fixtures, e.g. `mcp/manager-server.mjs`): its
 * bundle, built if need be; a fixture not bundled (one that loads no SDK) is its source.
 */
export function fixtureProgram(fixture: string): string {
  if (!BUNDLED_FIXTURES.includes(fixture) || process.env.SWITCHBOARD_FIXTURE_SOURCES === '1') return path.join(FIXTURES, fixture);
  return path.join(ensureFixtureBundles(), bundleName(fixture));
}

/** `chaos-server.ts` → `chaos-server.mjs`: the same name (what messages and process listings show), as JavaScript. */
function bundleName(fixture: string): string {
  return fixture.replace(/\.[cm]?[jt]s$/, '.mjs');
}

let ready: string | undefined;

/** The folder of this tree's bundles, built first if missing. */
export function ensureFixtureBundles(): string {
  if (ready !== undefined) return ready;
  const dir = path.join(CACHE, inputsHash());
  if (existsSync(path.join(dir, DONE))) {
    touch(path.join(dir, DONE));
  } else {
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), dir], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (run.status !== 0 || !existsSync(path.join(dir, DONE))) {
      throw new Error(`building the fixture bundles failed (exit ${run.status ?? run.signal}): ${run.stderr}\nrun \`node test/support/fixture-bundles.ts\` to see it alone`);
    }
  }
  ready = dir;
  return dir;
}

/** vitest's globalSetup: builds before the workers start, so that no two of them build at once. */
export function setup(): void {
  ensureFixtureBundles();
}

/** Every fixture file (sources the bundles may take in), the installed packages, and how they are built. */
function inputsHash(): string {
  const hash = createHash('sha256');
  const files = [fileURLToPath(import.meta.url), path.join(REPO, 'scripts', 'bundle-options.ts'), path.join(REPO, 'node_modules', '.package-lock.json')];
  for (const sub of ['', 'mcp']) {
    const dir = path.join(FIXTURES, sub);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isFile()) files.push(path.join(dir, entry.name));
  }
  for (const file of files.sort()) {
    hash.update(`${path.relative(REPO, file)}\0`);
    hash.update(existsSync(file) ? readFileSync(file) : 'missing');
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

// Fixtures that need the product import it from dist/ (`npm run build`'s output, as the CLI runs):
// it stays an import of that file, by absolute URL, and is not part of the hash. Any other local
// import must be a file of test/fixtures, the files the hash covers: a bundle taking in src/ or
// test/support would not be rebuilt when they change, so the build refuses it.
export const DIST_EXTERNAL = {
  name: 'dist-external',
  resolveId(source: string, importer: string | undefined) {
    if (importer === undefined || !source.startsWith('.')) return null;
    const file = path.resolve(path.dirname(importer), source);
    if (file.startsWith(DIST + path.sep)) return { id: pathToFileURL(file).href, external: true };
    if (!importer.includes(`${path.sep}node_modules${path.sep}`) && !file.startsWith(FIXTURES + path.sep)) {
      throw new Error(`${path.relative(REPO, importer)} imports ${source}, outside test/fixtures and dist/: the bundle cache would not see it change (import the product from dist/, or move the module into test/fixtures)`);
    }
    return null;
  },
};

// `import(new URL('./x.ts', import.meta.url).href)` (how a fixture run with type stripping loads a
// .ts module lazily) as `import('./x.ts')`, so that the module is bundled (as a lazily loaded chunk).
const IMPORT_BY_URL = /import\(new URL\(('[^']+'|"[^"]+"), import\.meta\.url\)\.href\)/g;
const IMPORTS_BY_URL = {
  name: 'imports-by-url',
  transform(code: string, id: string) {
    const rewritten = id.startsWith(FIXTURES + path.sep) ? code.replace(IMPORT_BY_URL, 'import($1)') : code;
    return rewritten === code ? null : { code: rewritten };
  },
};

/** Builds every bundle into `dir` (through a temporary folder renamed into place: builds racing each other both succeed). */
async function buildFixtureBundles(dir: string): Promise<void> {
  const { build } = await import('rolldown');
  // Loaded by its file name: this runs with type stripping, which maps no `.js` to `.ts`.
  const { builtinsByGetBuiltinModule, OUTPUT } = (await import(new URL('../../scripts/bundle-options.ts', import.meta.url).href)) as typeof Options;
  mkdirSync(CACHE, { recursive: true });
  const temp = path.join(CACHE, `.building-${process.pid}-${Date.now()}`);
  try {
    // One build per entry: each bundle holds only what its server loads (lazily loaded modules in chunks beside it).
    for (const fixture of BUNDLED_FIXTURES) {
      await build({
        input: { [bundleName(fixture).slice(0, -'.mjs'.length)]: path.join(FIXTURES, fixture) },
        platform: 'node',
        external: (id: string) => isBuiltin(id),
        plugins: [DIST_EXTERNAL, IMPORTS_BY_URL, builtinsByGetBuiltinModule],
        logLevel: 'warn',
        output: { ...OUTPUT, dir: temp, entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
      });
    }
    writeFileSync(path.join(temp, DONE), `${new Date().toISOString()}\n`);
    try {
      renameSync(temp, dir);
    } catch (error) {
      if (!existsSync(path.join(dir, DONE))) throw error; // else another process built the same first
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  // Other trees' bundles go once unused for an hour (a run still going may use them: each use
  // touches the folder's DONE file), and so do builds killed half-way.
  for (const entry of readdirSync(CACHE)) {
    const file = path.join(CACHE, entry);
    if (file !== dir && Date.now() - lastUse(file) > 3_600_000) rmSync(file, { recursive: true, force: true });
  }
}

/** When bundles were last used (or a build was started): their DONE file's time, else the folder's. */
function lastUse(folder: string): number {
  const stat = statSync(path.join(folder, DONE), { throwIfNoEntry: false }) ?? statSync(folder, { throwIfNoEntry: false });
  return stat?.mtimeMs ?? Date.now();
}

function touch(file: string): void {
  const now = new Date();
  utimesSync(file, now, now);
}

if (import.meta.main) {
  const dir = process.argv[2] ?? path.join(CACHE, inputsHash());
  await buildFixtureBundles(dir);
  process.stdout.write(`${dir}\n`);
}
