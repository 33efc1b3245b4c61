// A configuration reload applied to a running manager, server by server: unchanged servers keep
// their connection; settings a connection takes as it is are applied to it; a server reached
// differently gets a new connection at once while the old one finishes its calls (up to a drain
// timeout) and closes; a removed server does the same without a successor; an added one starts in
// the background as at startup.
import type { McpServerConfig } from '../config/index.js';
import { McpClientError, type Logger } from '../util/index.js';
import type { ManagedServer } from './managed-server.js';
import { diffServers } from './server-diff.js';
import type { ManagerSnapshots } from './manager-snapshots.js';
import { snapshotConfigHash } from './snapshot-store.js';

/** How long a replaced or removed server's running calls may take before they are cancelled. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;

/** What a reload did, by server name. */
export interface ServersReloaded {
  added: string[];
  removed: string[];
  /** Given a new connection (and process). */
  restarted: string[];
  /** Given new in-place settings; the connection stayed. */
  updated: string[];
  unchanged: string[];
  /** Resolves once every replaced or removed connection has finished its calls and closed. */
  drained: Promise<void>;
}

/** The parts of the manager a reload works on. */
export interface ReloadHost {
  /** The manager's servers, in config order; the reload replaces its contents. */
  readonly servers: Map<string, ManagedServer>;
  /** Servers a reload took out that are still finishing their calls (closed with the manager). */
  readonly retiring: Set<ManagedServer>;
  /** start() was called: new servers start as they would have at startup. */
  readonly started: boolean;
  /** Once the startup snapshots were read, a new server reads its own. */
  readonly snapshots: ManagerSnapshots;
  readonly logger: Logger;
  create(config: McpServerConfig): ManagedServer;
  /** Rebuild the catalog after `server`'s contribution may have changed (and say what changed). */
  rebuild(server: string): void;
  /** Drop what the manager keeps about `server` besides its tools (its resource templates). */
  forget(server: string): void;
}

export function reloadServers(host: ReloadHost, next: Readonly<Record<string, McpServerConfig>>, drainTimeoutMs: number): ServersReloaded {
  const current = new Map([...host.servers].map(([name, s]) => [name, s.config]));
  const diff = diffServers(current, next);
  const kind = new Map<string, 'added' | 'restarted' | 'updated'>([
    ...diff.added.map((c) => [c.name, 'added'] as const),
    ...diff.restarted.map((c) => [c.name, 'restarted'] as const),
    ...diff.updated.map((c) => [c.name, 'updated'] as const),
  ]);
  const order = new Map<string, ManagedServer>();
  const leaving: { server: ManagedServer; replaced: boolean }[] = [];
  const starting: ManagedServer[] = [];
  for (const config of Object.values(next)) {
    if (!config.enabled) continue;
    const old = host.servers.get(config.name);
    const change = kind.get(config.name);
    if (!old || change === 'added') {
      const added = host.create(config);
      order.set(config.name, added);
      starting.push(added);
    } else if (change === 'restarted') {
      const successor = host.create(config);
      // The old list stands in while the new connection starts: calls by name wait for it instead
      // of finding no tool. Its protocol verdict holds only for the same endpoint.
      const tools = old.tools;
      if (tools) successor.setSnapshot(tools.tools, snapshotConfigHash(old.config) === snapshotConfigHash(config) ? old.era : undefined, old.listCache);
      order.set(config.name, successor);
      leaving.push({ server: old, replaced: true });
      if (old.phase.kind !== 'idle' || config.startup_mode === 'eager') starting.push(successor);
    } else {
      if (change === 'updated') old.retune(config);
      order.set(config.name, old);
      if (change === 'updated' && old.phase.kind === 'idle' && config.startup_mode === 'eager') starting.push(old);
    }
  }
  for (const name of diff.removed) leaving.push({ server: host.servers.get(name)!, replaced: false });

  host.servers.clear();
  for (const [name, server] of order) host.servers.set(name, server);
  for (const { server } of leaving) {
    server.retire();
    host.retiring.add(server);
    host.forget(server.name);
  }
  for (const name of [...diff.removed, ...diff.restarted.map((c) => c.name), ...diff.updated.map((c) => c.name)]) host.rebuild(name);
  for (const server of starting) void start(host, server, !diff.added.some((c) => c.name === server.name));

  const drained = Promise.all(leaving.map(({ server, replaced }) => drainAndClose(host, server, replaced, drainTimeoutMs))).then(() => {});
  return {
    added: diff.added.map((c) => c.name),
    removed: diff.removed,
    restarted: diff.restarted.map((c) => c.name),
    updated: diff.updated.map((c) => c.name),
    unchanged: diff.unchanged,
    drained,
  };
}

/** A new or newly eager server starts as at startup (an added one reads its snapshot first); a lazy one waits for its first use. */
async function start(host: ReloadHost, server: ManagedServer, known: boolean): Promise<void> {
  const store = host.snapshots.store;
  if (!known && store && host.snapshots.loaded) {
    const snap = await store.load(server.config);
    const phase = server.phase.kind;
    if (snap && (phase === 'idle' || phase === 'starting') && host.servers.get(server.name) === server) {
      server.setSnapshot(snap.tools, snap.era, snap.cache);
      host.rebuild(server.name);
    }
  }
  if (!host.started || host.servers.get(server.name) !== server) return;
  if (known || server.config.startup_mode === 'eager') server.ensureStarted().catch(() => {});
}

async function drainAndClose(host: ReloadHost, server: ManagedServer, replaced: boolean, timeoutMs: number): Promise<void> {
  // A call that took this server's client just before the swap is counted by the next turn of the loop.
  await new Promise((resolve) => setImmediate(resolve));
  const what = replaced ? 'was restarted to apply a configuration change' : 'was removed from the configuration';
  const seconds = Math.round(timeoutMs / 100) / 10;
  const running = server.calls.inFlight;
  const drained = await server.calls.drain(timeoutMs, `MCP server '${server.name}' ${what}, and this call did not finish within the ${seconds} s drain timeout (mcp_reload_drain_timeout_ms)`);
  if (!drained) host.logger.warn(`MCP server '${server.name}' ${what}: ${server.calls.inFlight} of its calls did not finish within ${seconds} s and were cancelled`);
  else if (running > 0) host.logger.info(`MCP server '${server.name}' ${what}: its ${running} running calls finished first`);
  await server.close();
  host.retiring.delete(server);
}

/**
 * A reload that adds, removes or changes a server acting as each caller (or makes one so) is
 * refused: its callers' connections and credentials are set up at start, and a server started in the
 * background by a reload would act as the operator. Nothing has changed when this throws.
 */
export function refuseCallerIdentityChange(current: ReadonlyMap<string, ManagedServer>, next: Readonly<Record<string, McpServerConfig>>): void {
  for (const name of new Set([...current.keys(), ...Object.keys(next)])) {
    const before = current.get(name)?.config;
    const after = next[name]?.enabled === false ? undefined : next[name];
    if (before?.identity !== 'caller' && after?.identity !== 'caller') continue;
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    throw new McpClientError('config', `MCP server '${name}' acts as each caller (identity = "caller"): adding, removing or changing it takes a restart`);
  }
}
