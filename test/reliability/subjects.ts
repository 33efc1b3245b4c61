// The systems the reliability suites run against, behind one small interface: a subject is started
// with Codex-style [mcp_servers.*] tables and answers startup outcomes, status lines and calls: the
// connection manager (here) and the gateway, `switchboard serve`: over stdio with one client
// (gateway-subject.ts) and over Streamable HTTP with several clients sharing its upstreams
// (gateway-http-subject.ts).
import path from 'node:path';
import { parseMcpServerConfig } from '../../src/config/index.js';
import { createDefaultClientFactory, McpConnectionManager, SnapshotStore, type McpManagerEvent } from '../../src/mcp/index.js';
import { createFileLogger, errorMessage } from '../../src/util/index.js';
import { gatewayHttpSubject } from './gateway-http-subject.js';
import { gatewaySubject } from './gateway-subject.js';
import { removeTree, tempDir } from '../support/temp.js';
import { Changes } from '../support/wait.js';

export type StartupOutcome = { state: 'ready' } | { state: 'failed'; error: string } | { state: 'cancelled' };

export type CallOutcome = { ok: true; text: string; isError: boolean } | { ok: false; error: string; ms: number };

export interface SubjectOptions {
  /** Delay before a failed server is tried again (manager backoff start). */
  restartDelayMs?: number;
  /** The home directory (logs, snapshots); the caller owns it. Default: a temp dir removed on close. */
  home?: string;
}

export interface RunningSubject {
  /** The next startup outcome of `server` after the `skip` outcomes already seen (0 = the first). */
  startup(server: string, options?: { skip?: number; timeoutMs?: number }): Promise<StartupOutcome>;
  /** Every status line reporting a failure of `server` so far, in order. */
  failureLines(server: string): string[];
  call(server: string, tool: string, args: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<CallOutcome>;
  /** How many tools `server` contributes to the catalog now. */
  toolCount(server: string): Promise<number>;
  /** The protocol revision `server` negotiated (subjects that can tell). */
  protocol?(server: string): Promise<string | null>;
  /** The subject's log file (checked for secrets and for crashes). */
  logFile: string;
  close(): Promise<void>;
}

export interface FaultSubject {
  name: string;
  start(servers: Record<string, Record<string, unknown>>, options?: SubjectOptions): Promise<RunningSubject>;
}

const textOf = (content: unknown): string =>
  ((content ?? []) as { type: string; text?: string }[]).map((c) => (c.type === 'text' ? (c.text ?? '') : `[${c.type}]`)).join('');

/** McpConnectionManager, composed as the CLI composes it (default client factory, snapshots, file log). */
export const managerSubject: FaultSubject = {
  name: 'manager',
  async start(tables, options = {}) {
    const home = options.home ?? (await tempDir('sb-rel-'));
    const logFile = path.join(home, 'log', 'switchboard.log');
    const logger = createFileLogger(logFile, { level: 'debug' });
    const events: McpManagerEvent[] = [];
    const changes = new Changes();
    const servers = Object.fromEntries(Object.entries(tables).map(([name, raw]) => [name, parseMcpServerConfig(name, raw).config]));
    const manager = new McpConnectionManager(
      { servers, restart: { initialDelayMs: options.restartDelayMs ?? 60_000, maxDelayMs: Math.max(options.restartDelayMs ?? 60_000, 1_000) } },
      {
        createClient: createDefaultClientFactory({ logger, environments: {} }),
        logger,
        snapshots: SnapshotStore.inHome(home, logger),
        onEvent: (e) => {
          events.push(e);
          changes.notify();
        },
      },
    );
    manager.start();
    const outcomes = (server: string): StartupOutcome[] =>
      events.flatMap((e): StartupOutcome[] => {
        if (e.type !== 'mcp_startup_update' || e.server !== server) return [];
        const s = e.status;
        if (s.state === 'ready') return [{ state: 'ready' }];
        if (s.state === 'failed') return [{ state: 'failed', error: s.error }];
        if (s.state === 'cancelled') return [{ state: 'cancelled' }];
        return [];
      });
    return {
      logFile,
      startup: (server, { skip = 0, timeoutMs = 30_000 } = {}) =>
        changes.until(
          () => outcomes(server)[skip],
          () => `no startup outcome #${skip + 1} for ${server} within ${timeoutMs} ms; events: ${JSON.stringify(events)}`,
          timeoutMs,
        ),
      failureLines: (server) => outcomes(server).flatMap((o) => (o.state === 'failed' ? [o.error] : [])),
      async call(server, tool, args, { timeoutMs } = {}) {
        const started = performance.now();
        try {
          const result = await manager.callServerTool(server, tool, args, { timeoutMs });
          return { ok: true, text: textOf(result.content), isError: result.isError === true };
        } catch (err) {
          return { ok: false, error: errorMessage(err), ms: performance.now() - started };
        }
      },
      async toolCount(server) {
        return (await manager.listAllTools({ wait: 'none' })).filter((t) => t.server === server).length;
      },
      protocol: async (server) => manager.status().find((s) => s.name === server)?.protocol ?? null,
      async close() {
        await manager.close();
        if (options.home === undefined) await removeTree(home);
      },
    };
  },
};

/** Every subject the suites run against. */
export const SUBJECTS: readonly FaultSubject[] = [managerSubject, gatewaySubject, gatewayHttpSubject];
