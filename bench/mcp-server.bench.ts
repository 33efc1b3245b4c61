// `switchboard mcp-server` throughput: one scripted turn streaming 2,000 deltas over stdio (time
// from tools/call to result, codex/event notifications per second; baseline: the same turn read
// straight from the core, no MCP), and 20 concurrent `codex` calls over HTTP, each checked for a
// complete, in-order event stream (baseline: one call alone).
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { rsp, startFakeModelServer, type FakeModelServer, type ScriptStep } from '../test/fixtures/fake-model-server.js';
import { inProcessAgent } from '../test/support/in-process-server.js';
import { BIN, makeServerHome, requireBuild, spawnHttpServer, type ServerHome } from '../test/support/mcp-server-harness.js';
import { median, row, type BenchContext, type BenchRow } from './bench-types.js';

const STDIO_DELTAS = 2000;
const STDIO_RUNS = 5;
const HTTP_CALLS = 20;
const HTTP_DELTAS = 200;
const CALL_TIMEOUT_MS = 300_000;

interface EventNote {
  _meta: { requestId: string | number; threadId: string };
  id: string;
  msg: { type: string; delta?: string; message?: string; turn_id?: string };
}

function deltaText(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `d${i} `);
}

function deltaTurn(n: number): ScriptStep {
  const pieces = deltaText(n);
  return { kind: 'responses', events: [rsp.created(), ...pieces.map((p) => rsp.textDelta(p)), rsp.message(pieces.join('')), rsp.completed()] };
}

async function stdioClient(sh: ServerHome, extraArgs: string[]): Promise<{ client: Client; events: EventNote[] }> {
  const events: EventNote[] = [];
  const client = new Client({ name: 'bench', version: '0' }, { capabilities: {} });
  client.fallbackNotificationHandler = async (n) => {
    if (n.method === 'codex/event') events.push(n.params as unknown as EventNote);
  };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, ...extraArgs, 'mcp-server'], env: sh.env as Record<string, string>, cwd: sh.work, stderr: 'ignore' }));
  return { client, events };
}

/** One turn through `mcp-server` on stdio: ms from tools/call to result, and codex/events received. */
async function stdioTurns(model: FakeModelServer, sh: ServerHome, extraArgs: string[], runs: number): Promise<{ ms: number[]; events: number[] }> {
  const { client, events } = await stdioClient(sh, extraArgs);
  const out = { ms: [] as number[], events: [] as number[] };
  try {
    for (let i = 0; i <= runs; i++) {
      model.enqueue(deltaTurn(STDIO_DELTAS));
      const before = events.length;
      const t0 = performance.now();
      const result = await client.callTool({ name: 'codex', arguments: { prompt: 'stream' } }, { timeout: CALL_TIMEOUT_MS });
      const elapsed = performance.now() - t0;
      if (result.isError) throw new Error(`call failed: ${JSON.stringify(result.content)}`);
      if (i === 0) continue; // warm-up
      out.ms.push(elapsed);
      out.events.push(events.length - before);
    }
  } finally {
    await client.close();
  }
  return out;
}

/** The same turn read straight from the core's event stream (no MCP, no process boundary). */
async function coreTurns(model: FakeModelServer, runs: number): Promise<number[]> {
  const ip = await inProcessAgent(model);
  const ms: number[] = [];
  try {
    for (let i = 0; i <= runs; i++) {
      model.enqueue(deltaTurn(STDIO_DELTAS));
      const thread = await ip.agent.manager.start();
      const events = thread.events()[Symbol.asyncIterator]();
      const t0 = performance.now();
      const turnId = await thread.submit({ type: 'user_input', items: [{ type: 'text', text: 'stream' }] });
      for (;;) {
        const next = await events.next();
        if (next.done) throw new Error('thread ended early');
        if (next.value.msg.type === 'task_complete' && next.value.msg.turn_id === turnId) break;
      }
      if (i > 0) ms.push(performance.now() - t0);
      await events.return?.();
    }
  } finally {
    await ip.cleanup();
  }
  return ms;
}

async function stdioBench(ctx: BenchContext): Promise<BenchRow[]> {
  const model = await startFakeModelServer();
  const sh = await makeServerHome(model);
  try {
    ctx.log(`core baseline: ${STDIO_RUNS} turns of ${STDIO_DELTAS} deltas`);
    const core = median(await coreTurns(model, STDIO_RUNS));
    ctx.log('mcp-server on stdio');
    const full = await stdioTurns(model, sh, [], STDIO_RUNS);
    ctx.log('mcp-server on stdio with codex_events=false');
    const quiet = await stdioTurns(model, sh, ['-c', 'mcp_server.codex_events=false'], STDIO_RUNS);
    const ms = median(full.ms);
    const perTurn = median(full.events);
    const rates = full.ms.map((t, i) => full.events[i]! / (t / 1000));
    return [
      row(`stdio: ${STDIO_DELTAS}-delta turn, tools/call → result`, ms, 'ms', { baseline: core, notes: `median of ${STDIO_RUNS}; baseline: the same turn read from the core in-process` }),
      row('stdio: codex/event notifications delivered', median(rates), 'notifications/s', { notes: `${perTurn} codex/event per turn (${STDIO_DELTAS} deltas + turn events)` }),
      row(`stdio: same turn, codex_events=false`, median(quiet.ms), 'ms', { baseline: core, notes: `${median(quiet.events)} codex/event per turn` }),
      row('core: same turn, no MCP', core, 'ms', { notes: 'submit → task_complete on the thread event stream' }),
    ];
  } finally {
    await model.close();
    await sh.cleanup();
  }
}

interface CallCheck {
  ok: boolean;
  events: number;
  problem?: string;
}

/** Complete and in order: session_configured, then the turn's events ending in task_complete, deltas intact. */
function checkCall(events: EventNote[], threadId: string, expectedText: string): CallCheck {
  const problem = (p: string): CallCheck => ({ ok: false, events: events.length, problem: p });
  if (events[0]?.msg.type !== 'session_configured') return problem('first event is not session_configured');
  if (events.at(-1)?.msg.type !== 'task_complete') return problem('last event is not task_complete');
  if (events.some((e) => e._meta.threadId !== threadId)) return problem('an event of another thread arrived');
  const types = events.map((e) => e.msg.type);
  const firstDelta = types.indexOf('agent_message_delta');
  if (types.indexOf('task_started') > firstDelta || types.lastIndexOf('agent_message_delta') > types.indexOf('agent_message')) return problem('events out of order');
  const text = events.filter((e) => e.msg.type === 'agent_message_delta').map((e) => e.msg.delta).join('');
  if (text !== expectedText) return problem(`deltas do not rebuild the message (${text.length} of ${expectedText.length} chars)`);
  return { ok: true, events: events.length };
}

async function httpClient(url: string): Promise<{ client: Client; events: EventNote[] }> {
  const events: EventNote[] = [];
  const client = new Client({ name: 'bench-http', version: '0' }, { capabilities: {} });
  client.fallbackNotificationHandler = async (n) => {
    if (n.method === 'codex/event') events.push(n.params as unknown as EventNote);
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, events };
}

async function httpBench(ctx: BenchContext): Promise<BenchRow[]> {
  const model = await startFakeModelServer();
  const sh = await makeServerHome(model);
  const server = await spawnHttpServer(sh, ['--insecure-no-auth', '--max-sessions', String(HTTP_CALLS + 4), '--max-turns', String(HTTP_CALLS + 4)]);
  const expectedText = deltaText(HTTP_DELTAS).join('');
  const clients: { client: Client; events: EventNote[] }[] = [];
  try {
    ctx.log('http: one call alone (baseline and expected event count)');
    const solo = await httpClient(server.url);
    clients.push(solo);
    const soloMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      model.enqueue(deltaTurn(HTTP_DELTAS));
      solo.events.length = 0;
      const t0 = performance.now();
      const r = (await solo.client.callTool({ name: 'codex', arguments: { prompt: 'solo' } }, { timeout: CALL_TIMEOUT_MS })) as { structuredContent?: { threadId: string } };
      soloMs.push(performance.now() - t0);
      const check = checkCall(solo.events, r.structuredContent!.threadId, expectedText);
      if (!check.ok) throw new Error(`solo call: ${check.problem}`);
    }
    const expectedEvents = solo.events.length;

    ctx.log(`http: ${HTTP_CALLS} sessions, one concurrent codex call each`);
    for (let i = 0; i < HTTP_CALLS; i++) clients.push(await httpClient(server.url));
    const callers = clients.slice(1);
    for (let i = 0; i < HTTP_CALLS; i++) model.enqueue(deltaTurn(HTTP_DELTAS));
    const t0 = performance.now();
    const results = await Promise.allSettled(
      callers.map((c, i) => c.client.callTool({ name: 'codex', arguments: { prompt: `call ${i}` } }, { timeout: CALL_TIMEOUT_MS }) as Promise<{ structuredContent?: { threadId: string }; isError?: boolean }>),
    );
    const wall = performance.now() - t0;
    const checks = results.map((r, i): CallCheck => {
      if (r.status === 'rejected') return { ok: false, events: callers[i]!.events.length, problem: String(r.reason) };
      if (r.value.isError || !r.value.structuredContent) return { ok: false, events: callers[i]!.events.length, problem: 'error result' };
      const check = checkCall(callers[i]!.events, r.value.structuredContent.threadId, expectedText);
      return check.ok && check.events !== expectedEvents ? { ok: false, events: check.events, problem: `expected ${expectedEvents} events` } : check;
    });
    const completed = results.filter((r) => r.status === 'fulfilled' && !r.value.isError).length;
    const intact = checks.filter((c) => c.ok).length;
    const problems = checks.filter((c) => !c.ok).map((c) => c.problem);
    const delivered = checks.reduce((n, c) => n + c.events, 0);
    const soloMedian = median(soloMs);
    return [
      row(`http: ${HTTP_CALLS} concurrent codex calls, wall time`, wall, 'ms', { baseline: soloMedian, notes: `${HTTP_DELTAS} deltas per turn; baseline: one call alone` }),
      row('http: calls completed', completed, 'calls', { notes: `of ${HTTP_CALLS}` }),
      row('http: calls with every event, in order', intact, 'calls', { notes: problems.length ? `problems: ${[...new Set(problems)].join('; ')}` : `${expectedEvents} events each, deltas rebuild the message` }),
      row('http: codex/event notifications delivered', delivered, 'notifications', { notes: `expected ${expectedEvents * HTTP_CALLS}; lost ${expectedEvents * HTTP_CALLS - delivered}` }),
      row('http: notification throughput under load', delivered / (wall / 1000), 'notifications/s'),
    ];
  } finally {
    await Promise.all(clients.map((c) => c.client.close().catch(() => {})));
    await server.stop();
    await model.close();
    await sh.cleanup();
  }
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  requireBuild();
  return [...(await stdioBench(ctx)), ...(await httpBench(ctx))];
}
