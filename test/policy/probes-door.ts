// Probes of what the host applies to every road alike: the per-caller limits at the HTTP door
// (requests per minute, concurrent calls), the audit record, the server span, and a 2025 session
// serving only the caller that opened it. Each sends the road's own request (road-examples.ts).
import { expect } from 'vitest';
import { RawHttpSession } from '../support/raw-http-session.js';
import { waitFor } from '../support/wait.js';
import type { Answer, Conn } from './conn.js';
import { auditRecord, served, sleep, spanOf, traceparent, upstreamSeen, type Probe, type ProbeTable, type Target } from './policy-run.js';
import { LIMITS } from './policy-servers.js';
import { ERA_NAMES, SESSION_BOUND } from './policy-table.js';
import { example, sendExample } from './road-examples.js';

const TOO_MANY_REQUESTS = /^Too many requests: this caller may send \d+ requests per minute \(\[server_auth\.limits\] requests_per_minute\); retry in \d+ s$/;
const TOO_MANY_CALLS = /^Too many concurrent calls: this caller may run \d+ tool calls at once/;

function limited(answer: Answer, pattern: RegExp, what: string): void {
  expect(answer.status, `${what}: ${JSON.stringify(answer)}`).toBe(429);
  expect(answer.error?.message, what).toMatch(pattern);
  expect(Number(answer.retryAfter), `${what}: Retry-After`).toBeGreaterThanOrEqual(1);
}

const rootsChanged = async (t: Target) => (await upstreamSeen(t)).rootsChanged;

/** Spends the caller's minute with pings (tools/list in 2026-07-28, which has no ping); the requests it accepted in all (the door's count). */
async function spend(conn: Conn): Promise<number> {
  for (let i = 0; i <= LIMITS.requestsPerMinute + 2; i++) {
    const ping = await conn.send(conn.era === 'legacy' ? 'ping' : 'tools/list');
    if (ping.status === 429) return conn.sent - 1;
    expect(ping.status, JSON.stringify(ping)).toBe(200);
  }
  throw new Error(`no refusal after ${LIMITS.requestsPerMinute + 2} pings`);
}

/** The road's request is counted (the minute holds exactly the limit, it included), then refused with the rest. */
const rateProbe: Probe = async (t, road) => {
  if (road.row.road === 'initialize') return rateOfInitialize(t);
  const started = Date.now();
  const conn = await t.open(road.era, 'team', { raw: true });
  try {
    const ex = await example(road, t.names, conn);
    const before = ex.notification ? await rootsChanged(t) : 0;
    // A listen stream, once accepted, stays open: only its refusal is sent.
    if (road.row.road !== 'subscriptions/listen') {
      const first = await sendExample(conn, ex);
      expect(first.status, `the road's request is served at first: ${JSON.stringify(first)}`).toBe(ex.notification ? 202 : 200);
      if (ex.notification) await waitFor(async () => (await rootsChanged(t)) === before + 1, 'the upstream told of the first notification');
    }
    const accepted = await spend(conn);
    // A request slot comes back every 60/N s: allow for those that came back meanwhile.
    const regained = Math.floor((Date.now() - started) / (60_000 / LIMITS.requestsPerMinute));
    if (!ex.notification) expect(accepted, 'requests the minute took, this road\'s included').toBeGreaterThanOrEqual(LIMITS.requestsPerMinute);
    expect(accepted).toBeLessThanOrEqual(LIMITS.requestsPerMinute + regained);
    if (ex.notification) {
      const status = await conn.notify(ex.method, ex.params);
      const after = await rootsChanged(t);
      expect({ status, upstreamsTold: after - before - 1 }, 'the spent caller\'s notification').toEqual({ status: 429, upstreamsTold: 0 });
      return;
    }
    limited(await sendExample(conn, ex), TOO_MANY_REQUESTS, road.row.road);
  } finally {
    await conn.close();
  }
};

async function rateOfInitialize(t: Target): Promise<void> {
  const { token } = await t.http!.token('team');
  const first = new RawHttpSession(t.http!.url, token);
  await first.initialize();
  let accepted = 1;
  for (; accepted <= LIMITS.requestsPerMinute + 1; accepted++) if ((await first.post({ jsonrpc: '2.0', id: `p${accepted}`, method: 'ping' })).status === 429) break;
  expect(accepted, 'initialize and the pings the minute took').toBeGreaterThanOrEqual(LIMITS.requestsPerMinute);
  const second = await new RawHttpSession(t.http!.url, token).post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
  expect(second.status).toBe(429);
  expect(((await second.json()) as { error: { message: string } }).error.message).toMatch(TOO_MANY_REQUESTS);
  await first.close();
}

/** Slots taken (two slow calls, or two running tasks), the road's request is refused; the refusal is audited naming its tool. */
const callsProbe: Probe = async (t, road) => {
  const conn = await t.open(road.era, 'team', { raw: true });
  const tasked = road.row.kind === 'task-call';
  try {
    const ex = await example(road, t.names, conn);
    const holders = Array.from({ length: LIMITS.concurrentCalls }, () =>
      tasked ? conn.send('tools/call', { name: t.names.task!.tool, arguments: t.names.task!.args(30) }, { task: true }) : conn.send('tools/call', { name: t.names.slow(1000).name, arguments: t.names.slow(1000).args }),
    );
    const taskIds: string[] = [];
    if (tasked) for (const h of await Promise.all(holders)) taskIds.push(String((h.result?.task as { taskId?: string } | undefined)?.taskId ?? h.result?.taskId));
    else await sleep(300);
    const third = tasked ? await conn.send('tools/call', { name: t.names.echo.name, arguments: t.names.echo.args }) : await sendExample(conn, ex);
    for (const id of taskIds) await conn.send('tasks/cancel', { taskId: id }, { task: road.era === 'modern' });
    if (!tasked) for (const h of await Promise.all(holders)) served(h, 'a slow call holding a slot');
    limited(third, TOO_MANY_CALLS, tasked ? `a call while ${LIMITS.concurrentCalls} tasks run` : road.row.road);
    const tool = tasked ? t.names.echo.name : ex.tool;
    await auditRecord(t.http!.home, conn.subject, (r) => r.subject === conn.subject && r.outcome === 'too_many_calls', 'the refusal');
    await auditRecord(t.http!.home, conn.subject, (r) => r.subject === conn.subject && r.outcome === 'too_many_calls' && r.tool === tool, `the refusal naming ${tool}`);
  } finally {
    await conn.close();
  }
};

/** One record of the road's request: its caller, method, outcome (and tool and upstream where it names them). */
const auditProbe: Probe = async (t, road) => {
  const conn = await t.open(road.era, 'team');
  try {
    if (road.row.road === 'initialize') {
      await auditRecord(t.http!.home, conn.subject, (r) => r.subject === conn.subject && r.method === 'initialize' && r.outcome === 'ok', 'initialize');
      return;
    }
    const ex = await example(road, t.names, conn);
    const answer = await sendExample(conn, ex);
    const outcome = answer.error ? 'error' : answer.result?.isError ? 'tool_error' : 'ok';
    const record = await auditRecord(t.http!.home, conn.subject, (r) => r.subject === conn.subject && r.method === ex.method && (ex.tool === undefined || r.tool === ex.tool), `${ex.method} ${ex.tool ?? ''}`);
    expect(record.outcome).toBe(outcome);
    if (ex.upstream) expect(record.upstream).toBe(ex.upstream);
    if (road.era === 'legacy') expect(record.session).toBe(conn.sessionId);
    expect(typeof record.duration_ms).toBe('number');
  } finally {
    await conn.close();
  }
};

/** The road's request carries a trace context: its server span is exported, named for the method, in its revision and transport. */
const spanProbe: Probe = async (t, road) => {
  const conn = await t.open(road.era, 'team');
  try {
    const ex = road.row.road === 'initialize' ? undefined : await example(road, t.names, conn);
    const { traceId, header } = traceparent();
    const answer = ex ? await sendExample(conn, ex, { traceparent: header }) : await initializeTraced(t, header);
    const method = ex?.method ?? 'initialize';
    const span = await spanOf(t.receiver, traceId);
    expect(span.name.startsWith(method), span.name).toBe(true);
    expect(span.attributes, JSON.stringify(span.attributes)).toMatchObject({ 'mcp.method.name': method, 'mcp.protocol.version': ERA_NAMES[road.era], 'network.transport': t.transport === 'http' ? 'tcp' : 'pipe' });
    if (ex?.upstream && ex.method === 'tools/call' && !answer.error && !answer.result?.isError) {
      // The manager's span to the upstream is its child.
      await waitFor(() => t.receiver.spans.find((s) => s.traceId === traceId && s.kind === 3 && s.parentSpanId === span.spanId), 'the manager span under it');
    }
  } finally {
    await conn.close();
  }
};

async function initializeTraced(t: Target, header: string): Promise<Answer> {
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'traced', version: '0' }, _meta: { traceparent: header } };
  if (t.http) {
    const { token } = await t.http.token('team');
    const session = new RawHttpSession(t.http.url, token);
    const answer = { status: 200, ...(await session.responseOn(await session.post({ jsonrpc: '2.0', id: 0, method: 'initialize', params }), 0)) };
    served(answer, 'initialize');
    return answer;
  }
  await t.initializeRaw!(params);
  return { status: 200 };
}

/** Another caller's request on this caller's session is refused; the session still serves its own caller. */
export const sessionProbe: Probe = async (t, road) => {
  const mine = await t.open('legacy', 'team', { raw: true });
  try {
    const ex = road.row.road === 'initialize' ? undefined : await example(road, t.names, mine);
    const { token } = await t.http!.token('team');
    const other = new RawHttpSession(t.http!.url, token);
    other.sessionId = mine.sessionId!;
    const body = ex?.notification ? { jsonrpc: '2.0', method: ex.method, params: ex.params } : { jsonrpc: '2.0', id: 'other', method: ex!.method, params: ex!.params };
    const res = await other.post(body);
    expect(res.status, 'another caller on this session').toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
    const own = await sendExample(mine, ex!);
    expect(own.status, `its own caller: ${JSON.stringify(own)}`).toBe(ex!.notification ? 202 : 200);
  } finally {
    await mine.close();
  }
};

export const doorProbes: ProbeTable = (policy, road) => {
  if (policy === 'rate') return rateProbe;
  if (policy === 'calls') return callsProbe;
  if (policy === 'audit' && !road.row.road.startsWith('refusal:') && road.row.road !== 'subscriptions/listen') return auditProbe;
  if (policy === 'span' && road.row.road !== 'subscriptions/listen') return spanProbe;
  const cell = road.cells.bound;
  if (policy === 'bound' && 'holds' in cell && cell.holds === SESSION_BOUND) return sessionProbe;
  return undefined;
};
