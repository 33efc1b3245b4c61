// Probes of what a caller hears about servers outside its view (issue 30): the instructions of
// initialize and server/discover, and what reaches a 2025 session's own stream or a 2026-07-28 listen
// stream — log messages outside requests, status lines, list changes. Each is shown reaching a
// `control` caller who sees that server; the event is real: a log line the upstream sends on its
// own, the upstream process killed (the gateway reports it, restarts it, and its lists change).
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { waitFor } from '../support/wait.js';
import type { Conn, Note } from './conn.js';
import { listen } from './listener.js';
import type { Road } from './policy-matrix.js';
import { auditRecord, served, spanOf, traceparent, type Probe, type ProbeTable, type Target } from './policy-run.js';
import { upstreamPid } from './policy-servers.js';
import { ENVELOPE_2026 } from '../support/raw-2026.js';

const SETTLE_MS = 500;
const instructionsOf = (server: string) => `Instructions of ${server}.`;

/** Kills the hidden upstream (the gateway restarts it) and waits until the control caller heard of it. */
async function killHidden(t: Target, heard: () => boolean): Promise<void> {
  const pid = await upstreamPid(t.http!.home, t.names.hidden!.server);
  process.kill(pid, 'SIGKILL');
  await waitFor(heard, `the control caller hearing that ${t.names.hidden!.server} went down and came back`, 30_000);
  // Back up: its pid file names a new process.
  await waitFor(async () => (await upstreamPid(t.http!.home, t.names.hidden!.server).catch(() => pid)) !== pid, 'the upstream restarted', 30_000);
}

const aboutHidden = (server: string) => (n: Note) => JSON.stringify(n.params ?? {}).includes(server);
const listChanges = (notes: Note[]) => notes.filter((n) => n.method.endsWith('/list_changed'));

/** initialize (2025) and server/discover (2026): the instructions name the servers the caller sees, and no other. */
const instructionsProbe: Probe = async (t, road) => {
  const h = t.names.hidden!;
  const text = async (conn: Conn) => (road.era === 'legacy' ? conn.instructions : (served(await conn.send('server/discover'), 'server/discover').instructions as string | undefined)) ?? '';
  const [from, control] = await Promise.all([t.open(road.era, h.from), t.open(road.era, h.control)]);
  try {
    expect(await text(control), 'the control caller').toContain(instructionsOf(h.server));
    expect(await text(from)).not.toContain(instructionsOf(h.server));
    if (h.from === 'team') expect(await text(from)).toContain(instructionsOf(t.names.server));
  } finally {
    await Promise.all([from.close(), control.close()]);
  }
};

/** A 2025 session's own stream: log messages outside requests, status lines and list changes of the hidden server. */
const sessionStreamProbe: Probe = async (t) => {
  const h = t.names.hidden!;
  const [from, control] = await Promise.all([t.open('legacy', h.from), t.open('legacy', h.control)]);
  try {
    const line = `later-${Date.now()}`;
    served(await control.send('tools/call', { name: h.logLater, arguments: { ms: 200, text: line } }), 'log_later');
    await waitFor(() => control.notes.some((n) => n.method === 'notifications/message' && JSON.stringify(n.params).includes(line)), 'the log line on the control stream', 20_000);
    const before = control.notes.length;
    await killHidden(t, () => control.notes.slice(before).some((n) => n.method === 'notifications/message' && aboutHidden(h.server)(n)) && listChanges(control.notes.slice(before)).length > 0);
    await sleep(SETTLE_MS);
    expect(from.notes.filter((n) => n.method === 'notifications/message'), 'log messages and status lines on the stream of a caller who does not see the server').toEqual([]);
    expect(listChanges(from.notes), 'list changes on that stream').toEqual([]);
  } finally {
    await Promise.all([from.close(), control.close()]);
  }
};

/** A 2026-07-28 listen stream: the hidden server's list changes never reach it. */
const listenViewProbe: Probe = async (t) => {
  const h = t.names.hidden!;
  const filter = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true };
  const [fromToken, controlToken] = await Promise.all([t.http!.token(h.from), t.http!.token(h.control)]);
  const [from, control] = await Promise.all([listen(t.http!.url, fromToken.token, filter), listen(t.http!.url, controlToken.token, filter)]);
  try {
    await killHidden(t, () => listChanges(control.notes).length > 0);
    await sleep(SETTLE_MS);
    expect(listChanges(from.notes), 'list changes on the stream of a caller who does not see the server').toEqual([]);
  } finally {
    await Promise.all([from.close(), control.close()]);
  }
};

/** A listen stream is audited like any request once it ends. */
const listenAuditProbe: Probe = async (t) => {
  const { token, subject } = await t.http!.token('team');
  const stream = await listen(t.http!.url, token, { toolsListChanged: true });
  await stream.close();
  await auditRecord(t.http!.home, subject, (r) => r.subject === subject && r.method === 'subscriptions/listen', 'the listen stream', 3_000);
};

/** A listen stream carrying a trace context has its server span (over stdio: cancelled by its client, as the SDK's client ends one). */
const listenSpanProbe: Probe = async (t) => {
  const { traceId, header } = traceparent();
  const params = { notifications: { toolsListChanged: true } };
  if (!t.http) {
    const conn = await t.open('modern', 'team');
    void conn.send('subscriptions/listen', params, { traceparent: header });
    const requestId = conn.sent;
    await sleep(300);
    await conn.notify('notifications/cancelled', { requestId });
  } else {
    const { token } = await t.http.token('team');
    const stop = new AbortController();
    const res = await fetch(t.http.url, {
      method: 'POST',
      signal: stop.signal,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen', traceparent: header },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { ...params, _meta: { ...ENVELOPE_2026, traceparent: header } } }),
    });
    expect(res.status).toBe(200);
    await sleep(300);
    stop.abort();
  }
  const span = await spanOf(t.receiver, traceId);
  expect(span.attributes).toMatchObject({ 'mcp.method.name': 'subscriptions/listen', 'mcp.protocol.version': '2026-07-28' });
};

export const viewProbes: ProbeTable = (policy, road: Road) => {
  if (road.surface === 'mcp-server' || road.surface === 'tool-search') return undefined;
  const name = road.row.road;
  if (policy === 'view') {
    if (name === 'initialize' || name === 'server/discover') return instructionsProbe;
    if (name === 'session stream (GET)') return sessionStreamProbe;
    if (name === 'subscriptions/listen') return listenViewProbe;
  }
  if (name === 'subscriptions/listen' && policy === 'audit') return listenAuditProbe;
  if (name === 'subscriptions/listen' && policy === 'span') return listenSpanProbe;
  return undefined;
};
