// Which tool `mcp call <name>` means, found while starting as little as possible: the startup snapshots
// first (no server started), then only the servers the name can belong to (Codex's lazy per-server start).
import type { CatalogEntry, McpConnectionManager } from '../mcp/index.js';
import { nameMayBelongTo } from '../mcp/index.js';
import { errorMessage, isMcpClientError } from '../util/index.js';
import { CommandFailed, UsageError } from './exit-codes.js';

/**
 * The catalog entry `name` routes to. A name the snapshots know answers at once; another one starts
 * the servers whose tools it could name (never the others, so one slow server holds up only calls
 * to it) and looks again. Unknown: a usage error with close names, or the failure of the server it
 * would belong to.
 */
export async function findCallTarget(manager: McpConnectionManager, name: string, maxNameBytes: number): Promise<CatalogEntry> {
  await manager.listAllTools({ start: false });
  const known = manager.lookup(name);
  if (known) return known;
  const owners = manager.serverNames().filter((server) => nameMayBelongTo(name, server, maxNameBytes));
  const failures = await Promise.all(owners.map((server) => manager.waitForServer(server).then(() => undefined, (err: unknown) => err)));
  const found = manager.lookup(name);
  if (found) return found;
  const failed = owners.map((server, i) => ({ server, err: failures[i] })).filter((f) => f.err !== undefined);
  // The server that would have it did not start: that, not "unknown tool", is what to fix.
  if (failed.length > 0) throw new CommandFailed(failed.map((f) => serverFailureText(manager, f.server, f.err)).join('\n'), { cause: failed[0]!.err });
  const close = manager.closestToolNames(name);
  throw new UsageError(`unknown tool '${name}'${close.length ? `; did you mean ${close.join(', ')}?` : '; run `switchboard mcp tools` to list them'}`);
}

/**
 * What to say about `server` failing a call: its own failure text, as `mcp status` shows it (what
 * failed and what to do), rather than the manager's "is unavailable: " in front of that text.
 */
export function serverFailureText(manager: McpConnectionManager, server: string, err: unknown): string {
  const shown = isMcpClientError(err, 'server_unavailable') ? manager.status().find((s) => s.name === server)?.error : undefined;
  return shown ?? errorMessage(err);
}
