// Test harness for the gateway in-process: one gateway pool served by the host's serving entry, each
// client an SDK v2 client on an in-memory transport (one connection of the host), real upstream servers
// (child processes) behind it through the real connection manager, and recorded notifications to
// wait on instead of sleeping.
import { Client, InMemoryTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { parseMcpServerConfig, type McpServerConfig } from '../../src/config/index.js';
import { createDefaultClientFactory, McpConnectionManager, SnapshotStore, type McpManagerEvent, type RestartPolicyOptions } from '../../src/mcp/index.js';
import { GatewayPool, gatewayProduct, type GatewayMode, type GatewayToolSearch } from '../../src/gateway/index.js';
import { startServing, type Connection } from '../../src/mcp-host/index.js';
import { nullLogger, type Logger } from '../../src/util/index.js';
import { removeTree, tempDir } from '../support/temp.js';
import { Changes } from '../support/wait.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

export const UPSTREAM_FIXTURE = fixtureProgram('gateway-upstream.mjs');

/** A stdio server running the gateway upstream fixture under `name`. */
export function upstream(name: string, extra: Record<string, unknown> = {}): McpServerConfig {
  return parseMcpServerConfig(name, { command: process.execPath, args: [UPSTREAM_FIXTURE], env: { GW_NAME: name }, ...extra }).config;
}

export interface Note {
  method: string;
  params?: Record<string, unknown>;
}

/** One client of the gateway under test, with the notifications it received. */
export interface GatewayClient {
  client: Client;
  /** This client's connection to the gateway (its requests in flight). */
  connection: Connection;
  /** Notifications the client received, in order. */
  notes: Note[];
  /** Resolves with the first notification (past or future) matching `pred`; `after` skips earlier ones. */
  waitForNote(pred: (n: Note) => boolean, options?: { after?: number; timeoutMs?: number }): Promise<Note>;
  close(): Promise<void>;
}

export interface GatewayHarness extends GatewayClient {
  /** The gateway's one pool of upstream connections, shared by every client. */
  pool: GatewayPool;
  /** Manager events of the pool's upstream side. */
  events: McpManagerEvent[];
  home: string;
  waitForEvent(pred: (e: McpManagerEvent) => boolean, timeoutMs?: number): Promise<McpManagerEvent>;
  /** How many notifications the first client had received when `event` happened. */
  notesAt(event: McpManagerEvent): number;
  /** Another client of the same gateway (and so of the same upstreams). */
  connect(options?: Pick<GatewayHarnessOptions, 'capabilities' | 'setup'>): Promise<GatewayClient>;
  /** Closes the first client and then the gateway with its upstreams. */
  close(): Promise<void>;
}

export interface GatewayHarnessOptions {
  mode?: GatewayMode;
  capabilities?: ClientCapabilities;
  /** Reuse a home (and so its startup snapshots) across harnesses. */
  home?: string;
  logger?: Logger;
  /** Set request handlers (elicitation, sampling) on the client before it connects. */
  setup?: (client: Client) => void;
  /** Restart policy of the upstreams (default: retries after 200 ms, at most 1 s apart). */
  restart?: RestartPolicyOptions;
  /** Serve as `serve --tool-search` does. */
  toolSearch?: GatewayToolSearch;
}

export async function startGateway(servers: McpServerConfig[], options: GatewayHarnessOptions = {}): Promise<GatewayHarness> {
  const home = options.home ?? (await tempDir('sb-gw-'));
  const logger = options.logger ?? nullLogger;
  const events: McpManagerEvent[] = [];
  const noteCounts = new Map<McpManagerEvent, number>();
  const changes = new Changes();
  // The first client's notes (filled in by connect below), for notesAt.
  let firstNotes: Note[] = [];
  let firstConnected = false;
  const pool = new GatewayPool(
    { name: 'gateway-under-test', title: 'Gateway under test', version: '0.0.0', mode: options.mode ?? { kind: 'aggregate' }, ...(options.toolSearch ? { toolSearch: options.toolSearch } : {}) },
    {
      logger,
      createManager: (setup) =>
        new McpConnectionManager(
          { servers: Object.fromEntries(servers.map((s) => [s.name, s])), restart: options.restart ?? { initialDelayMs: 200, maxDelayMs: 1000 } },
          {
            createClient: createDefaultClientFactory({ logger, environments: {}, clientOptions: setup.clientOptions }),
            logger,
            snapshots: SnapshotStore.inHome(home, logger),
            handlersFor: setup.handlersFor,
            onEvent: (e) => {
              events.push(e);
              noteCounts.set(e, firstNotes.length);
              setup.onEvent(e);
              changes.notify();
            },
          },
        ),
    },
  );

  const waitUntil = <T>(find: () => T | undefined, what: string, timeoutMs: number, notes: Note[]): Promise<T> =>
    changes.until(find, () => `no ${what} within ${timeoutMs} ms; notes: ${JSON.stringify(notes)}; events: ${JSON.stringify(events)}`, timeoutMs) as Promise<T>;

  const serving = startServing(gatewayProduct(pool), { logger });

  async function connect(o: Pick<GatewayHarnessOptions, 'capabilities' | 'setup'> = {}): Promise<GatewayClient> {
    const notes: Note[] = [];
    if (!firstConnected) firstNotes = notes;
    const client = new Client({ name: 'gateway-test-client', version: '1.0.0' }, { capabilities: o.capabilities ?? {} });
    client.fallbackNotificationHandler = async (n) => {
      notes.push({ method: n.method, params: n.params as Record<string, unknown> | undefined });
      changes.notify();
    };
    o.setup?.(client);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const connection = serving.connect(serverSide);
    await client.connect(clientSide);
    return {
      client,
      connection,
      notes,
      waitForNote: (pred, w = {}) => waitUntil(() => notes.slice(w.after ?? 0).find(pred), 'matching notification', w.timeoutMs ?? 20_000, notes),
      async close() {
        await client.close().catch(() => {});
        await connection.close();
      },
    };
  }

  const first = await connect(options);
  firstConnected = true;
  return {
    ...first,
    pool,
    events,
    home,
    connect,
    waitForEvent: (pred, timeoutMs = 20_000) => waitUntil(() => events.find(pred), 'matching manager event', timeoutMs, first.notes),
    notesAt: (event) => noteCounts.get(event) ?? 0,
    async close() {
      await first.close();
      await serving.close();
      if (!options.home) await removeTree(home);
    },
  };
}

export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => (c.type === 'text' ? (c.text ?? '') : `[${c.type}]`)).join('\n');
}
