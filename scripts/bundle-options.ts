// What the build bundles and how it writes chunks (scripts/bundle.ts), in one place: the memory bench
// bundles the bare SDK client the same way, for a like-for-like baseline (bench/manager.bench.ts).
import path from 'node:path';

/**
 * Packages bundled into our chunks instead of loaded from node_modules: the MCP SDK, zod (the SDK's
 * and ours, one copy), the SDK's small dependencies, and the config layer's TOML parser. Loaded from
 * node_modules, zod alone is 97 modules and the SDK client 10 more; bundled, they are a few chunks
 * with what we use of them: a process with 10 SDK clients measured 69.2-69.8 MiB against
 * 81.5-82.0 MiB, and loading the SDK client took 51-55 ms of CPU against 88-89 ms
 * (docs/performance.md). `openai` too, as one chunk its first model request loads: from node_modules
 * it is 236 modules, and a process that calls a model spent 0.18 CPU-seconds more loading them
 * (docs/performance.md, "The openai package as one chunk"). Everything else (OpenTelemetry, pg, jose,
 * hono, pino, native modules) stays a package, loaded where it is used.
 */
const INLINED = new Set([
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/core',
  '@modelcontextprotocol/node',
  '@modelcontextprotocol/server',
  'zod',
  'smol-toml',
  // The model client, imported by the first model request (its own chunk, chunks/openai-*.js).
  'openai',
  // The CLI's parser: bundled so that its imports of Node's built-ins are taken as below.
  'commander',
  // The SDK client's dependencies, none of which we import ourselves.
  'cross-spawn', 'which', 'isexe', 'path-key', 'shebang-command', 'shebang-regex', 'eventsource', 'eventsource-parser', 'pkce-challenge',
]);

/** The package a bare specifier names: `zod/v3` → `zod`, `@scope/name/sub` → `@scope/name`. */
function packageOf(id: string): string {
  const parts = id.split('/');
  return id.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** A bare specifier (a package, or a Node built-in) stays an import unless INLINED; our own modules are bundled. */
export const external = (id: string) => !id.startsWith('.') && !path.isAbsolute(id) && !id.startsWith('\0') && !INLINED.has(packageOf(id));

/**
 * ESM, no source maps; comments dropped and non-ASCII characters escaped, so that V8 keeps every
 * chunk's source as a one-byte string (one `…` made a whole file two bytes a character).
 */
export const OUTPUT = { format: 'esm', sourcemap: false, comments: { jsdoc: false }, charset: 'ascii' } as const;

/** `import … from "node:x";` as rolldown writes it for an external built-in: a default import, named imports, or both. */
const BUILTIN_IMPORT = /^import (?:([\w$]+)|\{([^}]*)\}|([\w$]+), \{([^}]*)\}) from "(node:[\w/]+)";$/gm;

/**
 * Built-ins that most runs never use, taken when first used instead of when the chunk runs. A default
 * import (`import childProcess from …`) becomes an object that takes the module when a property is
 * read; named imports that are all functions (`import { readFile } from …`) become functions that take
 * the module at their first call (a statement that names anything else, such as `constants`, is taken
 * when the chunk runs, as before). Commander's chunk imports `node:child_process` for its executable
 * subcommands, which switchboard does not have: with net, dgram and the streams it needs, that was 5
 * to 7 ms of every CLI run. `node:fs/promises` loads readline, the streams and the file watchers
 * (about 4 ms), `node:net` the streams and its bindings (about 4 ms), `node:readline/promises`
 * readline: a command that only prints (`mcp tools --no-wait`) needs none of them (docs/performance.md,
 * "Issue 37, twenty-third round").
 */
const TAKEN_WHEN_USED = new Set(['node:child_process', 'node:fs/promises', 'node:net', 'node:readline/promises']);

/** `import { a, b as c }`'s names, as [imported, local] pairs. */
function importedNames(names: string): [string, string][] {
  return names
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '')
    .map((n) => {
      const [imported, local = imported] = n.split(/\s+as\s+/) as [string, string?];
      return [imported, local];
    });
}

/** A function to call, not a class or constructor (whose prototype has methods): only a call can be deferred. */
function plainFunction(value: unknown): boolean {
  return typeof value === 'function' && Object.getOwnPropertyNames(value.prototype ?? {}).length <= 1;
}

/**
 * The named imports of a built-in TAKEN_WHEN_USED as functions that take the module at their first
 * call (one module variable for the statement); undefined when a name is not a plain function of it.
 */
function namedWhenUsed(id: string, names: string, module: string, index: number): string | undefined {
  const pairs = importedNames(names);
  const exports = process.getBuiltinModule(id) as Record<string, unknown>;
  if (!pairs.every(([imported]) => plainFunction(exports[imported]))) return undefined;
  const taken = `__${id.replace(/\W/g, '_')}${index}`;
  return [`let ${taken};`, ...pairs.map(([imported, local]) => `const ${local} = (...args) => (${taken} ??= ${module}).${imported}(...args);`)].join('\n');
}

/**
 * Node's built-ins taken with `process.getBuiltinModule` instead of `import`. An `import` of a built-in
 * makes its ES module facade, which reads every export once, and so runs every lazy getter: `node:fs`
 * loads its streams, `fs/promises` and readline (about 30 of Node's own modules), `node:process` and
 * `node:util` load the diagnostic report, `parseArgs`, worker_threads (about 15 more), each compiled
 * at start-up. The bindings are read once when the chunk runs, which is when an import's would be
 * first read unless chunks import each other in a cycle; `noChunkCycles` rules that out.
 */
export const builtinsByGetBuiltinModule = {
  name: 'builtins-by-get-builtin-module',
  renderChunk(code: string) {
    let taken = 0;
    const rewritten = code.replace(BUILTIN_IMPORT, (_line, onlyName?: string, onlyNames?: string, bothName?: string, bothNames?: string, id?: string) => {
      const [name, names] = [onlyName ?? bothName, onlyNames ?? bothNames];
      // globalThis: a chunk may bind `process` itself (commander imports it by that name).
      const module = `globalThis.process.getBuiltinModule(${JSON.stringify(id)})`;
      const statements: string[] = [];
      if (name !== undefined) statements.push(TAKEN_WHEN_USED.has(id!) ? `const ${name} = new Proxy({}, { get: (_, key) => ${module}[key] });` : `const ${name} = ${module};`);
      if (names !== undefined) {
        const whenUsed = TAKEN_WHEN_USED.has(id!) ? namedWhenUsed(id!, names, module, taken++) : undefined;
        statements.push(whenUsed ?? `const {${names.replace(/\s+as\s+/g, ': ')}} = ${module};`);
      }
      return statements.join('\n');
    });
    const left = /^import [^;]*from "node:[^"]+";$/m.exec(rewritten);
    if (left) throw new Error(`builtins-by-get-builtin-module: an import of a built-in it does not rewrite: ${left[0]}`);
    return { code: rewritten, map: null };
  },
  generateBundle(_options: unknown, bundle: Record<string, { type: string; imports?: string[] }>) {
    noChunkCycles(bundle);
  },
};

/**
 * A statement assigning a function literal to a property (`this._transport.onclose = () => {`), as the
 * SDK writes them: V8 allocates such a literal in its old generation, expecting a method.
 */
const ASSIGNED_LITERAL = /^(\s*)((?:this|[\w$]+)(?:\.[\w$]+)+) = ((?:async )?(?:\([^()]*\)|[\w$]+) =>.*)$/;

/**
 * `code` with each function literal assigned to a property made a const first and then assigned:
 * the same function, allocated young. The SDK's `Protocol.connect` assigns three to each transport it
 * connects, and the 2026-07-28 leg connects a per-request server for every request: from the old
 * generation, those closures kept every request's server alive through the young collections until
 * the next full one (docs/performance.md, "Issue 37, sixteenth round"). Only a statement of its own
 * is rewritten (the line before ends one), so an `if` without braces keeps its one statement.
 */
export function handlersFromConsts(code: string): { code: string; rewritten: number } {
  const lines = code.split('\n');
  const out: string[] = [];
  let rewritten = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const match = ASSIGNED_LITERAL.exec(line);
    const before = out.findLast((l) => l.trim() !== '')?.trimEnd() ?? '';
    if (!match || !(before === '' || /[;{}]$/.test(before))) {
      out.push(line);
      continue;
    }
    const [, indent, target, fn] = match as unknown as [string, string, string, string];
    const name = `__${target.slice(target.lastIndexOf('.') + 1)}${rewritten}`; // what stack traces name it
    if (fn.endsWith('{')) {
      const end = lines.indexOf(`${indent}};`, i + 1);
      if (end < 0) {
        out.push(line);
        continue;
      }
      out.push(`${indent}const ${name} = ${fn}`, ...lines.slice(i + 1, end), `${indent}};`, `${indent}${target} = ${name};`);
      i = end;
    } else if (fn.endsWith(';')) {
      out.push(`${indent}const ${name} = ${fn}`, `${indent}${target} = ${name};`);
    } else {
      out.push(line);
      continue;
    }
    rewritten++;
  }
  return { code: out.join('\n'), rewritten };
}

/** The packages whose handlers {@link handlersFromConsts} rewrites (our own code is held to it by a lint rule). */
const SDK_DIST = /[\\/]node_modules[\\/]@modelcontextprotocol[\\/](server|core|client|node)[\\/]dist[\\/]/;

/** {@link handlersFromConsts} over the SDK's modules; fails the build when the SDK's server no longer has any to rewrite. */
export function youngHandlers() {
  let inServer = 0;
  return {
    name: 'young-handlers',
    transform(code: string, id: string) {
      const sdk = SDK_DIST.exec(id);
      if (!sdk) return null;
      const result = handlersFromConsts(code);
      if (sdk[1] === 'server') inServer += result.rewritten;
      return result.rewritten > 0 ? { code: result.code, map: null } : null;
    },
    buildEnd() {
      if (inServer === 0) throw new Error('young-handlers: the MCP SDK server assigns no function literal to a property any more: drop this plugin (scripts/bundle-options.ts)');
    },
  };
}

/** Fails the build if chunks import each other in a cycle (a chunk could then read a built-in before its chunk ran). */
function noChunkCycles(bundle: Record<string, { type: string; imports?: string[] }>): void {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') throw new Error(`chunks import each other in a cycle: ${[...path.slice(path.indexOf(file)), file].join(' -> ')}`);
    state.set(file, 'open');
    for (const next of bundle[file]?.imports ?? []) visit(next, [...path, file]);
    state.set(file, 'done');
  };
  for (const [file, out] of Object.entries(bundle)) if (out.type === 'chunk') visit(file, []);
}
