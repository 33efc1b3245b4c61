// Test harness for McpConnectionManager: real stdio fixture servers, recorded events, and waiting for
// an event instead of sleeping.
import { parseMcpServerConfig, type McpServerConfig } from '../../src/config/index.js';
import {
  createDefaultClientFactory,
  McpConnectionManager,
  SnapshotStore,
  TrustedServers,
  type ClientFactory,
  type McpManagerEvent,
  type RestartPolicyOptions,
} from '../../src/mcp/index.js';
import { nullLogger } from '../../src/util/index.js';
import { EventLog } from '../support/wait.js';
import { tempDir, removeTree } from '../support/temp.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

export const MANAGER_FIXTURE = fixtureProgram('mcp/manager-server.mjs');

/** A stdio server running the manager fixture with the given knobs and extra config keys. */
export function fixtureServer(name: string, knobs: Record<string, string> = {}, extra: Record<string, unknown> = {}): McpServerConfig {
  return parseMcpServerConfig(name, {
    command: process.execPath,
    args: [MANAGER_FIXTURE],
    env: { MGR_NAME: name, ...knobs },
    ...extra,
  }).config;
}

export interface Harness {
  manager: McpConnectionManager;
  events: McpManagerEvent[];
  home: string;
  /** Resolves with the first recorded event (past or future) matching `pred`. */
  waitFor<T extends McpManagerEvent>(pred: (e: McpManagerEvent) => e is T, timeoutMs?: number): Promise<T>;
  waitFor(pred: (e: McpManagerEvent) => boolean, timeoutMs?: number): Promise<McpManagerEvent>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  home?: string;
  snapshots?: boolean;
  restart?: RestartPolicyOptions;
  trusted?: string[];
  maxToolNameBytes?: number;
  createClient?: ClientFactory;
  stdioIdleStopSec?: number;
}

export async function makeHarness(servers: McpServerConfig[], options: HarnessOptions = {}): Promise<Harness> {
  const home = options.home ?? (await tempDir('sb-mgr-'));
  const log = new EventLog<McpManagerEvent>();
  const manager = new McpConnectionManager(
    {
      servers: Object.fromEntries(servers.map((s) => [s.name, s])),
      restart: options.restart,
      trusted: new TrustedServers(options.trusted ?? []),
      maxToolNameBytes: options.maxToolNameBytes,
      ...(options.stdioIdleStopSec === undefined ? {} : { stdioIdleStopSec: options.stdioIdleStopSec }),
    },
    {
      createClient: options.createClient ?? createDefaultClientFactory({ logger: nullLogger, environments: {} }),
      logger: nullLogger,
      snapshots: options.snapshots === false ? undefined : SnapshotStore.inHome(home, nullLogger),
      onEvent: (e) => log.push(e),
    },
  );
  return {
    manager,
    events: log.events,
    home,
    waitFor: ((pred: (e: McpManagerEvent) => boolean, timeoutMs?: number) => log.waitFor(pred, timeoutMs)) as Harness['waitFor'],
    async close() {
      await manager.close();
      if (!options.home) await removeTree(home);
    },
  };
}

export const isUpdate = (server: string, state: string) => (e: McpManagerEvent) =>
  e.type === 'mcp_startup_update' && e.server === server && e.status.state === state;

export const isComplete = (e: McpManagerEvent) => e.type === 'mcp_startup_complete';

export function textOf(result: { content: unknown[] }): string {
  const first = result.content[0] as { type: string; text?: string } | undefined;
  return first?.type === 'text' ? (first.text ?? '') : JSON.stringify(result.content);
}
