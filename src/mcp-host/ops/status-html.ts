// The live part of the status page, rendered on the server: upstreams, clients, recent calls and
// agent threads as tables. Every text is escaped; states are words as well as colours.
import type { CallRow, ClientRow, ConfigRow, OpsSnapshot, ThreadRow, UpstreamRow } from './ops-types.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function ms(value: number | undefined): string {
  if (value === undefined) return '—';
  if (value < 1) return `${value.toFixed(2)} ms`;
  if (value < 1000) return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(1)} s`;
}

function ago(now: number, at: number | undefined): string {
  if (at === undefined) return '—';
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
}

function table(caption: string, headers: string[], rows: string[][], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${escapeHtml(empty)}</p>`;
  const head = headers.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${c}</th>` : `<td>${c}</td>`)).join('')}</tr>`).join('');
  return `<div class="scroll"><table><caption class="sr-only">${escapeHtml(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

const badge = (state: string): string => `<span class="badge s-${escapeHtml(state)}">${escapeHtml(state)}</span>`;

/** The error while it lasts; once the server is ready again, the last one, muted. */
function lastError(u: UpstreamRow): string {
  if (!u.error) return '—';
  return u.state === 'ready' ? `<span class="earlier">earlier: ${escapeHtml(u.error)}</span>` : `<span class="error">${escapeHtml(u.error)}</span>`;
}

/** The state's badge; a server stop_after_idle_sec stopped says so (it is healthy, started on its next use). */
function upstreamState(now: number, u: UpstreamRow): string {
  if (u.identity === 'caller') return `${badge('per-caller')} ${u.caller_connections ?? 0} caller connection${u.caller_connections === 1 ? '' : 's'}`;
  return u.stopped_idle_at === undefined ? badge(u.state) : `${badge(u.state)} stopped when idle, ${ago(now, u.stopped_idle_at)}`;
}

function upstreamRows(now: number, rows: UpstreamRow[]): string[][] {
  return rows.map((u) => [
    `${escapeHtml(u.name)}${u.required ? ' <span class="req" title="required">required</span>' : ''}`,
    upstreamState(now, u),
    escapeHtml(u.protocol ?? '—'),
    String(u.tools),
    ms(u.startup_ms),
    String(u.restarts),
    lastError(u),
  ]);
}

function clientRows(rows: ClientRow[]): string[][] {
  return rows.map((c) => [`<code>${escapeHtml(c.session.slice(0, 8))}</code>`, escapeHtml(c.protocol ?? '—'), String(c.inFlight), String(c.streams), ms(c.idleMs)]);
}

function callRows(now: number, rows: CallRow[]): string[][] {
  return rows.map((c) => [
    escapeHtml(c.method),
    c.target ? escapeHtml(c.target) : '—',
    ms(c.durationMs),
    c.outcome === 'ok' ? badge('ok') : `${badge('error')} ${escapeHtml(c.errorType ?? '')}`,
    ago(now, c.at),
  ]);
}

function threadRows(now: number, rows: ThreadRow[]): string[][] {
  return rows.map((t) => [
    `<code>${escapeHtml(t.threadId)}</code>`,
    t.turnId !== undefined ? `${badge('running')} <code>${escapeHtml(t.turnId)}</code>, started ${ago(now, t.startedAt)}` : '—',
    escapeHtml(t.model ?? '—'),
    String(t.turns),
    escapeHtml(t.lastOutcome ?? '—'),
  ]);
}

/** The revision in force and, while the file on disk cannot be applied, why (it stays until a reload succeeds). */
function configSection(now: number, c: ConfigRow): string {
  const rows: string[][] = [['Revision', `<code>${escapeHtml(c.revision)}</code>, applied ${ago(now, c.appliedAt)}`]];
  if (c.error) {
    const where = c.error.line !== undefined ? ` (line ${c.error.line}${c.error.column !== undefined ? `, column ${c.error.column}` : ''})` : '';
    rows.push(['Reload', `${badge('failed')} ${ago(now, c.error.at)}${escapeHtml(where)}: <span class="error">${escapeHtml(c.error.message)}</span> The revision above still serves.`]);
  }
  if (c.restartNeeded.length > 0) rows.push(['Restart needed', `<span class="error">${c.restartNeeded.map(escapeHtml).join('<br>')}</span>`]);
  rows.push(['Reloads', `${c.reloads.applied} applied, ${c.reloads.failed} failed`]);
  return `<section aria-labelledby="h-config"><h2 id="h-config">Configuration</h2>${table('Configuration', ['', 'Value'], rows, '')}</section>`;
}

/** The sections the page replaces on every update. */
export function renderSections(s: OpsSnapshot): string {
  const failed = s.upstreams.filter((u) => u.state === 'failed').length;
  const ready = s.upstreams.filter((u) => u.state === 'ready').length;
  const stopped = s.upstreams.filter((u) => u.stopped_idle_at !== undefined).length;
  const summary = `${ready} of ${s.upstreams.length} upstreams ready${stopped ? `, ${stopped} stopped when idle` : ''}${failed ? `, ${failed} failed` : ''}; ${s.clients.length} clients connected`;
  const config = s.config ? (s.config.error ? '; config reload failed' : '') : '';
  return [
    `<p id="summary">${escapeHtml(summary + config)}</p>`,
    ...(s.config ? [configSection(s.now, s.config)] : []),
    `<section aria-labelledby="h-upstreams"><h2 id="h-upstreams">Upstreams</h2>${table('Upstream MCP servers', ['Server', 'State', 'Protocol', 'Tools', 'Startup', 'Restarts', 'Last error'], upstreamRows(s.now, s.upstreams), 'No upstream MCP servers.')}</section>`,
    `<section aria-labelledby="h-clients"><h2 id="h-clients">Connected clients</h2>${table('Connected clients', ['Session', 'Protocol', 'In flight', 'Streams', 'Idle'], clientRows(s.clients), 'No client connected.')}</section>`,
    `<section aria-labelledby="h-calls"><h2 id="h-calls">Recent calls</h2>${table('Recent calls, newest first', ['Method', 'Target', 'Latency', 'Outcome', 'When'], callRows(s.now, s.calls), 'No calls yet.')}</section>`,
    `<section aria-labelledby="h-threads"><h2 id="h-threads">Agent threads</h2>${table('Agent threads', ['Thread', 'Running turn', 'Model', 'Turns', 'Last outcome'], threadRows(s.now, s.threads), 'No agent threads.')}</section>`,
  ].join('\n');
}
