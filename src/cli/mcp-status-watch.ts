// `mcp status --watch`: the status table redrawn live while servers start and afterwards, with what
// the status page shows (state, protocol revision, tools, startup time, restarts, last error) until
// SIGINT/SIGTERM. On a terminal it redraws in place; otherwise it prints the table again on each change.
import type { McpConnectionManager, ServerStatus } from '../mcp/index.js';
import type { Output } from './context.js';

const REDRAW_MS = 1_000;
const COALESCE_MS = 50;

function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

/** The table for `statuses`; `lastErrors` keeps each server's last failure through its restarts. */
export function renderWatchTable(statuses: readonly ServerStatus[], lastErrors: Map<string, string>): string {
  if (statuses.length === 0) return 'No enabled MCP servers.\n';
  const body = statuses.map((s) => {
    if (s.error) lastErrors.set(s.name, s.error);
    const error = lastErrors.get(s.name);
    const shown = error === undefined ? '-' : `${s.state === 'ready' ? 'earlier: ' : ''}${error.split('\n')[0]}`;
    return [s.name, s.state, s.protocol ?? '-', String(s.tools), s.startup_ms !== undefined ? `${s.startup_ms} ms` : '-', String(s.restarts), shown];
  });
  const ready = statuses.filter((s) => s.state === 'ready').length;
  const failed = statuses.filter((s) => s.state === 'failed').length;
  return `${pad([['Name', 'State', 'Protocol', 'Tools', 'Startup', 'Restarts', 'Last error'], ...body])}\n\n${ready} ready${failed ? `, ${failed} failed` : ''} of ${statuses.length}\n`;
}

export interface StatusWatch {
  /** Call on every manager event. */
  changed(): void;
  /** Redraws until `stop` resolves. */
  run(stop: Promise<unknown>): Promise<void>;
}

export function watchStatus(manager: McpConnectionManager, out: Output): StatusWatch {
  const lastErrors = new Map<string, string>();
  let drawnLines = 0;
  let lastText = '';
  let pending: NodeJS.Timeout | undefined;
  let running = false;

  const draw = () => {
    pending = undefined;
    const text = renderWatchTable(manager.status(), lastErrors);
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
