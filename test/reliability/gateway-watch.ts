// What one client of a gateway under test sees, as the fault matrix reads it: a server is ready when
// its tools (mcp__<server>__*) are in tools/list (listed again on every list_changed); a failure is
// the gateway's status line for it. Shared by the stdio subject (one client) and the HTTP subject
// (several clients on one gateway). Also: the home a gateway subject runs in, and reaping what ran
// below a gateway once it has exited.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { stringify } from 'smol-toml';
import type { ProcessInfo } from '../support/process-tree.js';
import { tempDir } from '../support/temp.js';
import { Changes } from '../support/wait.js';
import { errorMessage } from '../../src/util/index.js';
import type { CallOutcome, StartupOutcome, SubjectOptions } from './subjects.js';

/**
 * The gateway's home for a row (the given one, or a new temp folder): config.toml with the row's
 * tables and restart delays, the log file it writes, and the environment the CLI runs in (no secrets:
 * only what it needs to find its home and its programs).
 */
export async function gatewayHome(tables: Record<string, Record<string, unknown>>, options: SubjectOptions, prefix: string) {
  const home = options.home ?? (await tempDir(prefix));
  const delay = options.restartDelayMs ?? 60_000;
  await writeFile(path.join(home, 'config.toml'), stringify({ mcp_restart_initial_delay_ms: delay, mcp_restart_max_delay_ms: Math.max(delay, 1_000), mcp_servers: tables }));
  const env = { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, SWITCHBOARD_LOG_LEVEL: 'debug' };
  return { home, logFile: path.join(home, 'log', 'switchboard.log'), env };
}

export class GatewayWatch {
  readonly outcomes = new Map<string, StartupOutcome[]>();
  readonly failures = new Map<string, string[]>();
  readonly changes = new Changes();
  private readonly present = new Set<string>();
  private listing: Promise<void> | undefined;
  private listAgain = false;

  constructor(
    readonly client: Client,
    private readonly servers: readonly string[],
  ) {
    client.fallbackNotificationHandler = async (n) => {
      if (n.method === 'notifications/tools/list_changed') void this.relist();
      if (n.method !== 'notifications/message') return;
      const params = n.params as { level?: string; logger?: string; data?: unknown; _meta?: Record<string, unknown> } | undefined;
      const server = params?._meta?.['switchboard/server'];
      if (params?.logger !== 'switchboard' || params.level !== 'error' || typeof server !== 'string') return;
      const text = String(params.data);
      this.failures.set(server, [...(this.failures.get(server) ?? []), text]);
      this.present.delete(server);
      this.record(server, { state: 'failed', error: text });
    };
  }

  /** tools/list, then a server whose tools appeared is ready. Re-lists once more if asked meanwhile. */
  relist(): Promise<void> {
    if (this.listing) {
      this.listAgain = true;
      return this.listing;
    }
    this.listing = (async () => {
      do {
        this.listAgain = false;
        const failuresAtSend = new Map(this.servers.map((s) => [s, this.failures.get(s)?.length ?? 0]));
        let names: string[];
        try {
          names = (await this.client.listTools(undefined, { timeout: 120_000 })).tools.map((t) => t.name);
        } catch {
          return; // closing
        }
        for (const server of this.servers) {
          // A list answered around a failure line may predate it; the list after the failure decides.
          if ((this.failures.get(server)?.length ?? 0) !== failuresAtSend.get(server)) continue;
          const has = names.some((n) => n.startsWith(`mcp__${server}__`));
          if (has && !this.present.has(server)) {
            this.present.add(server);
            this.record(server, { state: 'ready' });
          } else if (!has) this.present.delete(server);
        }
      } while (this.listAgain);
    })().finally(() => {
      this.listing = undefined;
    });
    return this.listing;
  }

  /** A call by model-visible name; a call that failed behind the gateway comes back as an error result carrying the reason. */
  async call(server: string, tool: string, args: Record<string, unknown>, timeoutMs = 120_000): Promise<CallOutcome> {
    const started = performance.now();
    try {
      const result = await this.client.callTool({ name: `mcp__${server}__${tool}`, arguments: args }, { timeout: timeoutMs });
      const text = textOf(result.content);
      if (result.isError === true) return { ok: false, error: text, ms: performance.now() - started };
      return { ok: true, text, isError: false };
    } catch (err) {
      return { ok: false, error: errorMessage(err), ms: performance.now() - started };
    }
  }

  async toolCount(server: string): Promise<number> {
    const { tools } = await this.client.listTools(undefined, { timeout: 120_000 });
    return tools.filter((t) => t.name.startsWith(`mcp__${server}__`)).length;
  }

  /** The outcome #skip+1 of `server`, once this client has seen it. */
  startup(server: string, skip: number, timeoutMs: number): Promise<StartupOutcome> {
    return this.changes.until(
      () => this.outcomes.get(server)?.[skip],
      () => `no startup outcome #${skip + 1} for ${server} within ${timeoutMs} ms; seen: ${JSON.stringify(Object.fromEntries(this.outcomes))}`,
      timeoutMs,
    );
  }

  private record(server: string, outcome: StartupOutcome): void {
    this.outcomes.set(server, [...(this.outcomes.get(server) ?? []), outcome]);
    this.changes.notify();
  }
}

export const textOf = (content: unknown): string =>
  ((content ?? []) as { type: string; text?: string }[]).map((c) => (c.type === 'text' ? (c.text ?? '') : `[${c.type}]`)).join('');

/** Still running (not exited, not a zombie) with the same command line as when it was seen. */
async function stillRunning(p: ProcessInfo): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${p.pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    if (state === 'Z' || state === 'X') return false;
    return (await readFile(`/proc/${p.pid}/cmdline`, 'utf8')).replace(/\0/g, ' ').trim() === p.command;
  } catch {
    return false;
  }
}

/** Of the processes that were below an exited gateway, those still running after 5 s (then killed). */
export async function leftBehind(below: ProcessInfo[]): Promise<ProcessInfo[]> {
  const deadline = Date.now() + 5_000;
  let left = below;
  while (left.length > 0 && Date.now() < deadline) {
    left = (await Promise.all(left.map(async (p) => ((await stillRunning(p)) ? [p] : [])))).flat();
    if (left.length > 0) await new Promise((r) => setTimeout(r, 50));
  }
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return left;
}
