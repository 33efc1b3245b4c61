// What the build bundles and how it writes chunks (scripts/bundle.ts), in one place: the memory bench
// bundles the bare SDK client the same way, for a like-for-like baseline (bench/manager.bench.ts).
import path from 'node:path';

/**
 * Packages bundled into our chunks instead of loaded from node_modules: the MCP SDK, zod (the SDK's
 * and ours, one copy), the SDK's small dependencies, and the config layer's TOML parser. Loaded from
 * node_modules, zod alone is 97 modules and the SDK client 10 more; bundled, they are a few chunks
 * with what we use of them: a process with 10 SDK clients measured 69.2-69.8 MiB against
 * 81.5-82.0 MiB, and loading the SDK client took 51-55 ms of CPU against 88-89 ms
 * (docs/performance.md). Everything else (OpenTelemetry, pg, openai, jose, hono, native modules)
 * stays a package, loaded where it is used.
 */
const INLINED = new Set([
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/core',
  '@modelcontextprotocol/node',
  '@modelcontextprotocol/server',
  'zod',
  'smol-toml',
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
