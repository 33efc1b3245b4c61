// zod's memoizer, for the CLI's processes. zod 4 installs one by default so that a parse can follow an
// input that holds a reference cycle: every parse through a recursive schema (the MCP SDK's JSON-RPC
// message schemas are recursive) then keeps per-parse state. What our processes parse comes from
// JSON and TOML, which cannot hold a cycle. Without that state, a third fewer bytes outlived each of
// the gateway's young collections in a 2025 session (docs/performance.md, "Issue 37, sixteenth
// round"). zod reads the memoizer when a schema is built, so it is set before any command module
// (and with it zod) loads. A library user's process keeps zod's default: only the CLI sets this.
import type { $ZodMemoizer } from 'zod/v4/core';

/** No cycle support: what `zod/mini` has unless it opts in. A cyclic input overflows the stack instead. */
export const ACYCLIC_MEMOIZER: $ZodMemoizer = {
  attach() {},
  guard() {},
  alloc: (_inst, _payload, empty) => empty,
};

interface ZodGlobal {
  /** zod's configuration object, which every copy of zod in the process shares (zod/v4/core/core.js). */
  __zod_globalConfig?: { memoizer?: $ZodMemoizer };
}

/** Gives the process's zod {@link ACYCLIC_MEMOIZER} unless a memoizer was set already; true when it did. */
export function parseWithoutCycles(global: object = globalThis): boolean {
  const config = ((global as ZodGlobal).__zod_globalConfig ??= {});
  if (config.memoizer) return false;
  config.memoizer = ACYCLIC_MEMOIZER;
  return true;
}
