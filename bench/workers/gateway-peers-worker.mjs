// The client side of bench/gateway-peers.bench.ts: MCP clients over Streamable HTTP against
// gateways the bench started, of one era: `"client": "2026"` is the SDK v2 client negotiating the
// era (`versionNegotiation: 'auto'`: server/discover, then 2026-07-28 where the gateway offers it,
// else initialize), `"client": "2025"` the SDK v1 client (initialize, a 2025 session). Runs in its
// own process so the bench's module loader and its /proc sampling stay away from the clients timed.
// Usage: node gateway-peers-worker.mjs sequential '{"client","url","tool","n":1000,"warmup":1000}'
//          connects ({"phase":"connected"}), then runs a block of 100 calls for each line on stdin
//          ({"block":k} after each); after the last it prints {p50, p99, warmupP50, era} (ms; the
//          first `warmup` calls, a fresh session's, timed apart) and waits for a line on stdin;
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

/**
 * One gateway's sequential calls, in blocks of 100 the bench starts one at a time (a line `go` on
 * stdin; `{"block":k}` when done), so that it can alternate the blocks of every gateway's worker.
 * Each gateway has a client process of its own: no gateway's calls warm the client of another. The
 * first `warmup` calls are timed apart. After the last block it prints the figures and waits for a
 * line before ending the session (the bench samples the gateway's CPU meanwhile).
 */
async function sequential({ url, tool, n, warmup }) {
  const conn = await connect(url, 30_000);
  try {
    const times = [];
    const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
    process.stdout.write(`${JSON.stringify({ phase: 'connected' })}\n`);
    for (let block = 0; block < (warmup + n) / 100; block++) {
      if ((await lines.next()).done) throw new Error('the bench went away');
      for (let i = 0; i < 100; i++) {
        const t0 = performance.now();
        await call(conn.client, tool, 'x', 10_000);
        times.push(performance.now() - t0);
      }
      process.stdout.write(`${JSON.stringify({ block })}\n`);
    }
    const warm = times.slice(0, warmup);
    const measured = times.slice(warmup);
    process.stdout.write(`${JSON.stringify({ p50: percentile(measured, 50), p99: percentile(measured, 99), warmupP50: percentile(warm, 50), era: eraOf(conn) })}\n`);
    await lines.next(); // while the session is open: supergateway stops a session's server with it
  } finally {
    await end(conn);
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
  await sequential(args);
} else if (mode === 'crowd') {
  await crowd(args);
} else {
  throw new Error(`unknown mode ${mode}`);
}
process.exit(0);
