// What `mcp status` shows: live per-server progress on a terminal (spinner, state, tools, elapsed),
// then a table (with the protocol revision each server negotiated); and the JSON shape for --json.
import type { McpServerConfig } from '../config/index.js';
import type { McpManagerEvent, ServerStatus } from '../mcp/index.js';
import type { AuthSummary } from './auth-status.js';
import type { Output } from './context.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface StatusRow {
  name: string;
  state: 'ready' | 'failed' | 'cancelled' | 'disabled' | 'starting' | 'idle';
  tools: number;
  error?: string;
  startup_ms?: number;
  source: 'live' | 'snapshot' | 'none';
  /** The protocol revision the server negotiated (`2026-07-28`, `2025-11-25`, ...); null if never. */
  protocol: string | null;
  environment?: string;
  /** HTTP servers: the credential kind and whether a valid one is held (`AuthSummary.json`). */
  auth?: AuthSummary['json'];
  /** Its text for the table (not in --json). */
  authLabel?: string;
}

/** Rows with each HTTP server's credential summary added. */
export function withAuth(rows: StatusRow[], summaries: ReadonlyMap<string, AuthSummary>): StatusRow[] {
  return rows.map((r) => {
    const summary = summaries.get(r.name);
    return summary ? { ...r, auth: summary.json, authLabel: summary.label } : r;
  });
}

export function statusRows(configs: readonly McpServerConfig[], statuses: readonly ServerStatus[]): StatusRow[] {
  const byName = new Map(statuses.map((s) => [s.name, s]));
  return configs.map((c): StatusRow => {
    const s = byName.get(c.name);
    const env = c.environment ? { environment: c.environment } : {};
    if (!s) return { name: c.name, state: 'disabled', tools: 0, source: 'none', protocol: null, ...env };
    const state = s.state === 'closed' ? 'cancelled' : s.state;
    return {
      name: c.name,
      state,
      tools: s.tools,
      ...(s.error ? { error: s.error } : {}),
      ...(s.startup_ms !== undefined ? { startup_ms: s.startup_ms } : {}),
      source: s.source,
      protocol: s.protocol,
      ...env,
    };
  });
}

export function statusJson(rows: readonly StatusRow[]) {
  return {
    servers: rows.map(({ authLabel: _label, ...row }) => row),
    ready: rows.filter((r) => r.state === 'ready').map((r) => r.name),
    failed: rows.filter((r) => r.state === 'failed').map((r) => ({ server: r.name, error: r.error ?? '' })),
    cancelled: rows.filter((r) => r.state === 'cancelled').map((r) => r.name),
  };
}

/**
 * One stderr line per server that failed to start, for the commands that list what the servers offer
 * (`mcp tools`, `resources`, `prompts`): their answer lacks those servers, and saying nothing would
 * pass an incomplete list off as the whole one.
 */
export function failedServerLines(statuses: readonly ServerStatus[], what: string): string[] {
  return statuses.filter((s) => s.state === 'failed').map((s) => `error: no ${what} from '${s.name}': ${s.error ?? 'it failed'}\n`);
}

function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

export function renderStatusTable(rows: readonly StatusRow[]): string {
  if (rows.length === 0) return 'No MCP servers configured yet. Try `switchboard mcp add my-tool -- my-command`.\n';
  const withEnv = rows.some((r) => r.environment);
  const withAuthColumn = rows.some((r) => r.authLabel);
  const header = ['Name', 'State', 'Tools', 'Startup', 'Source', 'Protocol', ...(withEnv ? ['Environment'] : []), ...(withAuthColumn ? ['Auth'] : []), 'Error'];
  const body = rows.map((r) => [
    r.name,
    r.state,
    r.state === 'disabled' ? '-' : String(r.tools),
    r.startup_ms !== undefined ? `${r.startup_ms} ms` : '-',
    r.source === 'none' ? '-' : r.source,
    r.protocol ?? '-',
    ...(withEnv ? [r.environment ?? 'local'] : []),
    ...(withAuthColumn ? [r.authLabel ?? '-'] : []),
    r.error ? r.error.split('\n')[0]! : '-',
  ]);
  const counts = ['ready', 'failed', 'cancelled', 'disabled'].map((s) => [s, rows.filter((r) => r.state === s).length] as const).filter(([, n]) => n > 0);
  const details = rows.filter((r) => r.error && r.error.includes('\n')).map((r) => `\n${r.name}: ${r.error}`).join('\n');
  return `${pad([header, ...body])}\n\n${counts.map(([s, n]) => `${n} ${s}`).join(', ')}\n${details ? `${details}\n` : ''}`;
}

/** Redraws one line per server on a terminal while servers start. */
export class StatusProgress {
  private readonly state = new Map<string, { state: string; started: number; ended?: number; error?: string }>();
  private frame = 0;
  private drawn = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly out: Output,
    private readonly tools: (server: string) => number,
  ) {}

  start(names: readonly string[]): void {
    const now = performance.now();
    for (const n of names) this.state.set(n, { state: 'starting', started: now });
    if (!this.out.isTTY) return;
    this.draw();
    this.timer = setInterval(() => this.draw(), 100);
  }

  onEvent(event: McpManagerEvent): void {
    if (event.type !== 'mcp_startup_update') return;
    const row = this.state.get(event.server) ?? { state: 'starting', started: performance.now() };
    // The lines show each server's first start: a failed server's background retry would otherwise
    // turn its line back to "starting" and its time back to 0.0 s while the others are still drawn.
    if (row.ended !== undefined) return;
    row.state = event.status.state;
    if (event.status.state !== 'starting') row.ended = performance.now();
    if (event.status.state === 'failed') row.error = event.status.error.split('\n')[0];
    this.state.set(event.server, row);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.out.isTTY) {
      this.draw();
      this.out.write('\n');
    }
  }

  private draw(): void {
    const width = Math.max(...[...this.state.keys()].map((n) => n.length), 4);
    const spin = SPINNER[this.frame++ % SPINNER.length]!;
    const lines = [...this.state.entries()].map(([name, r]) => {
      const secs = (((r.ended ?? performance.now()) - r.started) / 1000).toFixed(1);
      const mark = r.state === 'starting' ? spin : r.state === 'ready' ? '✓' : r.state === 'failed' ? '✗' : '-';
      const detail = r.state === 'ready' ? `${this.tools(name)} tools` : r.state === 'failed' ? (r.error ?? '') : '';
      return `${mark} ${name.padEnd(width)}  ${r.state.padEnd(9)} ${secs.padStart(5)}s  ${detail}`.trimEnd();
    });
    const up = this.drawn > 0 ? `\x1b[${this.drawn}A\r\x1b[J` : '';
    this.out.write(`${up}${lines.join('\n')}\n`);
    this.drawn = lines.length;
  }
}
