// `mcp status --watch`: the status table redrawn live while servers start and afterwards, with what
// the status page shows (state, protocol revision, tools, startup time, restarts, last error, the
// config revision and a config.toml that could not be applied) until SIGINT/SIGTERM. On a terminal it
// redraws in place; otherwise it prints the table again on each change.
import type { McpConnectionManager, ServerStatus } from '../mcp/index.js';
import type { ConfigRow } from '../mcp-host/ops/index.js';
import { LiveConfig, serversSummary } from './config-reload.js';
import type { CliContext, Output } from './context.js';
import { createMcpManager } from './mcp-compose.js';
import { restartNeeded } from './restart-keys.js';

const REDRAW_MS = 1_000;
const COALESCE_MS = 50;

function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

/** The config lines under the table: the revision in force, and why the file on disk is not (with where). */
function configLines(config: ConfigRow | undefined): string {
  if (!config) return '';
  const lines = [`config revision ${config.revision}`];
  if (config.error) lines.push(`config not applied (revision ${config.revision} still in force): ${config.error.message}`);
  for (const note of config.restartNeeded) lines.push(`restart needed: ${note}`);
  return `${lines.join('\n')}\n`;
}

/** The table for `statuses`; `lastErrors` keeps each server's last failure through its restarts. */
export function renderWatchTable(statuses: readonly ServerStatus[], lastErrors: Map<string, string>, config?: ConfigRow): string {
  if (statuses.length === 0) return `No enabled MCP servers.\n${configLines(config)}`;
  const body = statuses.map((s) => {
    if (s.error) lastErrors.set(s.name, s.error);
    const error = lastErrors.get(s.name);
    const shown = error === undefined ? '-' : `${s.state === 'ready' ? 'earlier: ' : ''}${error.split('\n')[0]}`;
    return [s.name, s.state, s.protocol ?? '-', String(s.tools), s.startup_ms !== undefined ? `${s.startup_ms} ms` : '-', String(s.restarts), shown];
  });
  const ready = statuses.filter((s) => s.state === 'ready').length;
  const failed = statuses.filter((s) => s.state === 'failed').length;
  return `${pad([['Name', 'State', 'Protocol', 'Tools', 'Startup', 'Restarts', 'Last error'], ...body])}\n\n${ready} ready${failed ? `, ${failed} failed` : ''} of ${statuses.length}\n${configLines(config)}`;
}

export interface StatusWatch {
  /** Call on every manager event. */
  changed(): void;
  /** Redraws until `stop` resolves. */
  run(stop: Promise<unknown>): Promise<void>;
}

/** `config`: the live configuration's status, for a watch that reloads config.toml. */
export function watchStatus(manager: McpConnectionManager, out: Output, config?: () => ConfigRow): StatusWatch {
  const lastErrors = new Map<string, string>();
  let drawnLines = 0;
  let lastText = '';
  let pending: NodeJS.Timeout | undefined;
  let running = false;

  const draw = () => {
    pending = undefined;
    const text = renderWatchTable(manager.status(), lastErrors, config?.());
    if (out.isTTY) {
      const footer = `updated ${new Date().toLocaleTimeString()}; Ctrl-C to stop\n`;
      const up = drawnLines > 0 ? `\x1b[${drawnLines}A\r\x1b[J` : '';
      out.write(`${up}${text}${footer}`);
      drawnLines = (text + footer).split('\n').length - 1;
    } else if (text !== lastText) {
      out.write(`${lastText ? '\n' : ''}${text}`);
    }
    lastText = text;
  };

  return {
    changed() {
      if (running) pending ??= setTimeout(draw, COALESCE_MS);
    },
    async run(stop) {
      running = true;
      draw();
      const timer = setInterval(draw, REDRAW_MS);
      try {
        await stop;
      } finally {
        running = false;
        clearInterval(timer);
        if (pending) clearTimeout(pending);
      }
      draw();
    },
  };
}

/**
 * `mcp status --watch` until `stop`: every server (lazy ones too) started and watched, and config.toml
 * followed as `serve` follows it: a change applies server by server, a file that cannot be applied is
 * shown under the table (the servers of the revision in force keep running).
 */
export async function runStatusWatch(ctx: CliContext, stop: Promise<unknown>): Promise<void> {
  const loaded = await ctx.loadConfig();
  let watch: StatusWatch | undefined;
  const manager = createMcpManager(ctx, loaded.config, { onEvent: () => watch?.changed() });
  const startAll = (names: readonly string[]) => {
    for (const n of names) manager.waitForServer(n).catch(() => {});
  };
  const live = new LiveConfig(ctx, loaded, async (next, { started }) => {
    const servers = manager.reload(next.config.mcp_servers, { drainTimeoutMs: next.config.mcp_reload_drain_timeout_ms });
    startAll(servers.added);
    return { summary: serversSummary(servers), restartNeeded: restartNeeded(started, next.config) };
  });
  live.onChange(() => watch?.changed());
  try {
    watch = watchStatus(manager, ctx.stdout, () => live.current());
    live.start();
    manager.start();
    startAll(manager.serverNames());
    await watch.run(stop);
  } finally {
    live.close();
    await manager.close();
  }
}
