// The gateway as a fault-matrix subject: the built CLI `switchboard serve` over stdio in a temp home
// whose config.toml holds the row's tables, spoken to by an SDK v2 client. A server is ready when its
// tools (mcp__<server>__*) are in tools/list; a failure is the gateway's status line for it.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client, deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { stringify } from 'smol-toml';
import { errorMessage } from '../../src/util/index.js';
import { BIN, requireBuild } from '../support/mcp-server-harness.js';
import { waitForExit } from '../support/fixture-processes.js';
import { descendants, type ProcessInfo } from '../support/process-tree.js';
import type { FaultSubject, StartupOutcome } from './subjects.js';
import { removeTree, tempDir } from '../support/temp.js';
import { Changes } from '../support/wait.js';

/** How long the gateway may take to close its servers and exit once its stdin ends. */
const EXIT_GRACE_MS = 20_000;

/**
 * The client side of the gateway's stdin/stdout, with the SDK's codec. Unlike the SDK's stdio
 * transport it has no 10 MiB line limit, so a 50 MiB result relayed by the gateway arrives whole.
 */
class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly child: ChildProcessWithoutNullStreams) {}

  async start(): Promise<void> {
    const lines = createInterface({ input: this.child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (line.trim() === '') return;
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch (err) {
        this.onerror?.(new Error(`the gateway wrote a line that is not JSON-RPC: ${line.slice(0, 200)}`, { cause: err }));
        return;
      }
      this.onmessage?.(message);
    });
    this.child.once('close', () => this.onclose?.());
    this.child.stdin.on('error', (err) => this.onerror?.(err));
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      this.child.stdin.write(serializeMessage(message), (err) => (err ? reject(err) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.child.stdin.end();
  }
}

const textOf = (content: unknown): string =>
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

/** Whether the child exited within `ms`. */
function exitsWithin(child: ChildProcessWithoutNullStreams, ms: number): Promise<boolean> {
  return waitForExit(child, ms).then(
    () => true,
    () => false,
  );
}

/** `switchboard serve` (stdio) as the CLI runs it: config.toml, default client factory, file log. */
export const gatewaySubject: FaultSubject = {
  name: 'gateway',
  async start(tables, options = {}) {
    requireBuild();
    const home = options.home ?? (await tempDir('sb-rel-gw-'));
    const logFile = path.join(home, 'log', 'switchboard.log');
    const delay = options.restartDelayMs ?? 60_000;
    await writeFile(
      path.join(home, 'config.toml'),
      stringify({ mcp_restart_initial_delay_ms: delay, mcp_restart_max_delay_ms: Math.max(delay, 1_000), mcp_servers: tables }),
    );
    // No secrets: only what the CLI needs to find its home and its programs.
    const env = { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, SWITCHBOARD_LOG_LEVEL: 'debug' };
    const child = spawn(process.execPath, [BIN, 'serve'], { cwd: home, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d.slice(0, 100_000)));

    const outcomes = new Map<string, StartupOutcome[]>();
    const failures = new Map<string, string[]>();
    const present = new Set<string>();
    const changes = new Changes();
    const servers = Object.keys(tables);
    const record = (server: string, outcome: StartupOutcome) => {
      outcomes.set(server, [...(outcomes.get(server) ?? []), outcome]);
      changes.notify();
    };

    const client = new Client({ name: 'fault-matrix', version: '1.0.0' }, { capabilities: {} });
    let listing: Promise<void> | undefined;
    let listAgain = false;
    /** tools/list, then a server whose tools appeared is ready. Re-lists once more if asked meanwhile. */
    const relist = (): Promise<void> => {
      if (listing) {
        listAgain = true;
        return listing;
      }
      listing = (async () => {
        do {
          listAgain = false;
          const failuresAtSend = new Map(servers.map((s) => [s, failures.get(s)?.length ?? 0]));
          let names: string[];
          try {
            names = (await client.listTools(undefined, { timeout: 120_000 })).tools.map((t) => t.name);
          } catch {
            return; // closing
          }
          for (const server of servers) {
            // A list answered around a failure line may predate it; the list after the failure decides.
            if ((failures.get(server)?.length ?? 0) !== failuresAtSend.get(server)) continue;
            const has = names.some((n) => n.startsWith(`mcp__${server}__`));
            if (has && !present.has(server)) {
              present.add(server);
              record(server, { state: 'ready' });
            } else if (!has) present.delete(server);
          }
        } while (listAgain);
      })().finally(() => {
        listing = undefined;
      });
      return listing;
    };
    client.fallbackNotificationHandler = async (n) => {
      if (n.method === 'notifications/tools/list_changed') void relist();
      if (n.method !== 'notifications/message') return;
      const params = n.params as { level?: string; logger?: string; data?: unknown; _meta?: Record<string, unknown> } | undefined;
      const server = params?._meta?.['switchboard/server'];
      if (params?.logger !== 'switchboard' || params.level !== 'error' || typeof server !== 'string') return;
      const text = String(params.data);
      failures.set(server, [...(failures.get(server) ?? []), text]);
      present.delete(server);
      record(server, { state: 'failed', error: text });
    };
    try {
      await client.connect(new ChildStdioTransport(child), { timeout: 30_000 });
    } catch (err) {
      child.kill('SIGKILL');
      throw new Error(`switchboard serve did not initialize: ${errorMessage(err)}; stderr: ${stderr}`, { cause: err });
    }
    void relist();

    return {
      logFile,
      startup: (server, { skip = 0, timeoutMs = 30_000 } = {}) =>
        changes.until(
          () => outcomes.get(server)?.[skip],
          () => `no startup outcome #${skip + 1} for ${server} within ${timeoutMs} ms; seen: ${JSON.stringify(Object.fromEntries(outcomes))}`,
          timeoutMs,
        ),
      failureLines: (server) => [...(failures.get(server) ?? [])],
      async call(server, tool, args, { timeoutMs } = {}) {
        const started = performance.now();
        try {
          const result = await client.callTool({ name: `mcp__${server}__${tool}`, arguments: args }, { timeout: timeoutMs ?? 120_000 });
          const text = textOf(result.content);
          // The gateway turns a call that failed behind it into an error result carrying the reason.
          if (result.isError === true) return { ok: false, error: text, ms: performance.now() - started };
          return { ok: true, text, isError: false };
        } catch (err) {
          return { ok: false, error: errorMessage(err), ms: performance.now() - started };
        }
      },
      async toolCount(server) {
        const { tools } = await client.listTools(undefined, { timeout: 120_000 });
        return tools.filter((t) => t.name.startsWith(`mcp__${server}__`)).length;
      },
      async close() {
        // What runs below the gateway now must be gone once it has exited.
        const below = child.pid === undefined ? [] : await descendants(child.pid);
        await client.close().catch(() => {});
        const exited = await exitsWithin(child, EXIT_GRACE_MS);
        if (!exited) child.kill('SIGKILL');
        await exitsWithin(child, 5_000);
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
        if (options.home === undefined) await removeTree(home);
        if (!exited) throw new Error(`switchboard serve did not exit within ${EXIT_GRACE_MS} ms of its stdin ending; stderr: ${stderr}`);
        if (child.exitCode !== 0) throw new Error(`switchboard serve exited with ${child.exitCode ?? child.signalCode}; stderr: ${stderr}`);
        if (left.length > 0) throw new Error(`left running after switchboard serve exited: ${left.map((p) => `${p.pid} ${p.command}`).join('; ')}`);
      },
    };
  },
};
