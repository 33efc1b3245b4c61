// The load: clients each calling tools (echo with up to 4 KiB, add) on randomly chosen upstreams in a
// constant stream, seeded; the tally of calls, latency and failures by upstream and cause.
import { errorMessage } from '../../dist/util/index.js';
import { seededRandom } from '../../test/fixtures/seeded-random.mjs';

/** An error message with its variable parts (numbers, URLs, paths, ids) blanked: one line per cause. */
export function causeOf(err) {
  // fetch's own failure says only "fetch failed": the socket error under it is the cause.
  const under = err?.cause ?? err?.data?.cause;
  const detail = errorMessage(err) === 'fetch failed' && under ? ` (${under.code ?? errorMessage(under)})` : '';
  return `${errorMessage(err)}${detail}`
    .split('\n')[0]
    .replace(/https?:\/\/\S+/g, '<url>')
    .replace(/`\/[^`]*`/g, '`<path>`')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 200);
}

/** One client's stream of calls until keepGoing() says stop. */
export async function runClient({ conn, id, seed, upstreams, keepGoing, stats }) {
  const random = seededRandom(seed * 100_000 + id);
  const payload = 'x'.repeat(4096);
  for (let i = 0; keepGoing(); i++) {
    const upstream = upstreams[Math.floor(random() * upstreams.length)].name;
    const useAdd = random() < 0.3;
    const a = Math.floor(random() * 1000);
    const text = `${id}:${i}:${payload.slice(0, Math.floor(random() * payload.length))}`;
    const t0 = performance.now();
    try {
      const got = await conn.call(upstream, useAdd ? 'add' : 'echo', useAdd ? { a, b: 1 } : { text });
      const want = useAdd ? String(a + 1) : text;
      if (got !== want) stats.fail('wrong result', upstream);
      else stats.ok(upstream, performance.now() - t0);
    } catch (err) {
      stats.fail(causeOf(err), upstream);
      // A failed upstream answers at once; do not spin on it.
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/** Latency percentiles from a bounded reservoir (every call counts in the mean and max). */
const RESERVOIR = 20_000;

export function makeStats(upstreams, seed) {
  const byUpstream = Object.fromEntries(upstreams.map((u) => [u.name, { ok: 0, failed: 0, meanMs: 0 }]));
  const upstreamLatency = Object.fromEntries(upstreams.map((u) => [u.name, 0]));
  const causes = new Map();
  const reservoir = [];
  const random = seededRandom(seed + 7);
  let calls = 0;
  let oks = 0;
  let latencyTotal = 0;
  let latencyMax = 0;
  const round = (x) => Math.round(x * 10) / 10;
  return {
    ok(upstream, ms) {
      calls++;
      oks++;
      byUpstream[upstream].ok++;
      upstreamLatency[upstream] += ms;
      latencyTotal += ms;
      latencyMax = Math.max(latencyMax, ms);
      if (reservoir.length < RESERVOIR) reservoir.push(ms);
      else {
        const j = Math.floor(random() * oks);
        if (j < RESERVOIR) reservoir[j] = ms;
      }
    },
    fail(cause, upstream) {
      calls++;
      byUpstream[upstream].failed++;
      const key = `${upstream}: ${cause}`;
      causes.set(key, (causes.get(key) ?? 0) + 1);
    },
    get calls() {
      return calls;
    },
    snapshot() {
      for (const [name, u] of Object.entries(byUpstream)) u.meanMs = u.ok > 0 ? round(upstreamLatency[name] / u.ok) : null;
      const sorted = [...reservoir].sort((x, y) => x - y);
      const pct = (p) => (sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]) : null);
      return {
        calls,
        ok: oks,
        failed: calls - oks,
        latencyMs: { mean: oks > 0 ? round(latencyTotal / oks) : null, p50: pct(0.5), p99: pct(0.99), max: Math.round(latencyMax) },
        byUpstream,
        failuresByCause: Object.fromEntries([...causes].sort((x, y) => y[1] - x[1])),
      };
    },
  };
}
