// The client side of bench/gateway-peers.bench.ts: MCP clients over Streamable HTTP against
// gateways the bench started, of one era: `"client": "2026"` is the SDK v2 client negotiating the
// era (`versionNegotiation: 'auto'`: server/discover, then 2026-07-28 where the gateway offers it,
// else initialize), `"client": "2025"` the SDK v1 client (initialize, a 2025 session). Runs in its
// own process so the bench's module loader and its /proc sampling stay away from the clients timed.
// Usage: node gateway-peers-worker.mjs sequential '{"client","targets":[{"name","url","tool"}],"n":1000,"warmup":1000}'
//          prints {name: {p50, p99, warmupP50, era}} (ms), blocks of 100 calls alternating between
//          the targets, after `warmup` calls each (the first calls of a fresh session, timed apart);
//          after each of the two it prints {"phase":"warmed"} / {"phase":"measured"} and waits for a
//          line on stdin;
//        node gateway-peers-worker.mjs crowd '{"client","url","tool","clients","calls","callTimeoutMs"}'
//          connects every client at once, each makes `calls` sequential calls; prints the outcome
//          as one JSON line while the sessions are still open, then waits for a line on stdin before
//          ending them (DELETE) and exiting — the bench samples the gateway's processes meanwhile.
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { percentile } from './worker-support.mjs';

const [mode, argJson] = process.argv.slice(2);
const args = JSON.parse(argJson ?? '{}');

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const info = { name: 'bench-gateway-peers', version: '1.0.0' };

function newClient(url) {
  if (args.client === '2025') return { transport: new V1Transport(new URL(url)), client: new V1Client(info) };
  if (args.client === '2026') return { transport: new StreamableHTTPClientTransport(new URL(url)), client: new Client(info, { versionNegotiation: { mode: 'auto' } }) };
  throw new Error(`"client" must be "2025" or "2026", not ${JSON.stringify(args.client)}`);
}

/** The revision a connected client speaks: the v2 client's negotiated one, or the v1 transport's. */
const eraOf = ({ client, transport }) => client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion ?? 'unknown';

async function connect(url, timeoutMs) {
  const { transport, client } = newClient(url);
  try {
    await withTimeout(client.connect(transport), timeoutMs, 'connect');
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
  return { client, transport };
}

/** A well-behaved client's goodbye: DELETE the session, then close. */
async function end({ client, transport }) {
  // A session-less (2026-07-28 or stateless) connection has nothing to DELETE.
  if (transport.sessionId) await withTimeout(transport.terminateSession(), 5_000, 'DELETE').catch(() => {});
  await client.close().catch(() => {});
}

// The v1 client takes a result schema before the options (undefined: its default).
const call = (client, tool, text, timeout) =>
  args.client === '2025' ? client.callTool({ name: tool, arguments: { text } }, undefined, { timeout }) : client.callTool({ name: tool, arguments: { text } }, { timeout });

/** Prints `message` as a JSON line, then waits for a line on stdin (the bench's go-ahead once it has looked at the gateways). */
async function sayAndWait(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
  const rl = createInterface({ input: process.stdin });
  await new Promise((resolve) => {
    rl.once('line', resolve);
    rl.once('close', resolve);
  });
  rl.close();
}

/** p50/p99 of `n` calls per target in alternating blocks of 100, after `warmup` calls each (also blocks, also timed). */
async function sequential({ targets, n, warmup }) {
  const conns = [];
  try {
    for (const t of targets) conns.push(await connect(t.url, 30_000));
    const blocks = async (count) => {
      const times = targets.map(() => []);
      // Alternating blocks, so drift on a shared machine hits every gateway alike.
      for (let block = 0; block < count / 100; block++) {
        for (const [k, t] of targets.entries()) {
          for (let i = 0; i < 100; i++) {
            const t0 = performance.now();
            await call(conns[k].client, t.tool, 'x', 10_000);
            times[k].push(performance.now() - t0);
          }
        }
      }
      return times;
    };
    const warm = await blocks(warmup);
    await sayAndWait({ phase: 'warmed' }); // the bench samples the gateways' CPU between the two phases, and after them
    const times = await blocks(n);
    await sayAndWait({ phase: 'measured' }); // while the sessions are open: supergateway stops a session's server with it
    return Object.fromEntries(targets.map((t, k) => [t.name, { p50: percentile(times[k], 50), p99: percentile(times[k], 99), warmupP50: percentile(warm[k], 50), era: eraOf(conns[k]) }]));
  } finally {
    await Promise.all(conns.map(end));
  }
}

function countError(errors, err) {
  const raw = err instanceof Error ? err.message : String(err);
  // An HTTP error body's JSON-RPC message says more than the SDK's wrapper around it.
  const text = (/"message":"([^"]+)"/.exec(raw)?.[1] ?? raw).replace(/\s+/g, ' ').slice(0, 120);
  errors[text] = (errors[text] ?? 0) + 1;
}

async function crowd({ url, tool, clients, calls, callTimeoutMs }) {
  const errors = {};
  let ok = 0;
  let failed = 0;
  let connected = 0;
  const conns = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      let conn;
      try {
        conn = await connect(url, callTimeoutMs);
        conns.push(conn);
        connected++;
      } catch (err) {
        countError(errors, err);
        failed += calls; // a client that cannot connect makes none of its calls
        return;
      }
      for (let j = 0; j < calls; j++) {
        try {
          const r = await call(conn.client, tool, `c${i}-${j}`, callTimeoutMs);
          if (r.isError) throw new Error(`isError: ${JSON.stringify(r.content).slice(0, 80)}`);
          ok++;
        } catch (err) {
          countError(errors, err);
          failed++;
        }
      }
    }),
  );
  const wallMs = performance.now() - t0;
  // Hold the sessions open until the bench has looked at the gateway's processes.
  await sayAndWait({ ok, failed, connected, wallMs, errors });
  await Promise.all(conns.map(end));
}

if (mode === 'sequential') {
  process.stdout.write(`${JSON.stringify(await sequential(args))}\n`);
} else if (mode === 'crowd') {
  await crowd(args);
} else {
  throw new Error(`unknown mode ${mode}`);
}
process.exit(0);
