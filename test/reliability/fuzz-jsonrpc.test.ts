// JSON-RPC fuzzing: at least 10,000 seeded random frames per target — `switchboard mcp-server` and
// `switchboard serve` over stdio and Streamable HTTP, and an SDK server as a baseline
// (test/fuzz/targets.ts) — well-formed requests with random params, notifications, stray responses,
// broken messages, garbage, batches, pathological JSON, batched through one long-running server
// process (over HTTP: one POST per frame, plus HTTP-level probes). Never a crash, hang or 5xx: every
// well-formed request is answered (result or JSON-RPC error), everything else gets a clean rejection,
// stdout carries only JSON-RPC (over HTTP: only the listening line), and ping is answered after every batch.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { probesArbitrary, type HttpProbe } from '../fuzz/http-probes.js';
import { batchArbitrary, type FrameKind } from '../fuzz/jsonrpc-frames.js';
import type { FuzzTarget } from '../fuzz/fuzz-target.js';
import { FUZZ_TARGETS } from '../fuzz/targets.js';
import { sliceOf, sliceTitle } from '../support/long-runs.js';
import { killProcessesByMarker } from '../support/process-tree.js';

export const JSONRPC_FUZZ = { seed: 9_009, minFrames: 10_000, batches: 125, batchSize: { min: 60, max: 140 } } as const;

let target: FuzzTarget | undefined;
let marker = '';
afterEach(async () => {
  await target?.close();
  target = undefined;
  await killProcessesByMarker(marker);
});

// What `npm test` fuzzes, at the full count: the gateway over HTTP (our own HTTP host, its probes, and
// the frames behind them). SWITCHBOARD_TEST_FULL=1 (`npm run test:reliability`) adds the gateway over
// stdio, the SDK baseline and mcp-server over stdio and HTTP.
const SLICE_TARGETS = ['switchboard serve --http (one upstream)'];
const targets = sliceOf(FUZZ_TARGETS, (t) => SLICE_TARGETS.includes(t.name));
if (targets.length === 0) throw new Error(`SLICE_TARGETS names no fuzz target: ${SLICE_TARGETS.join(', ')}`);

describe(sliceTitle('JSON-RPC frame fuzzing', targets.length, FUZZ_TARGETS.length), () => {
  for (const entry of targets) {
    // HTTP costs about 2.5 times stdio (a request, a response stream and a client per frame).
    it(`${entry.name}: ${JSONRPC_FUZZ.minFrames}+ frames, seed ${JSONRPC_FUZZ.seed}`, { timeout: entry.transport === 'http' ? 480_000 : 240_000 }, async () => {
      marker = `fuzz-${randomUUID()}`;
      target = await entry.start(marker);
      const t = target;
      const kinds = new Map<FrameKind, number>();
      let frames = 0;
      let answered = 0;
      let errors = 0;
      const statuses = new Map<number, number>();
      let reusedIdRefused = 0;
      let exchangeMs = 0;
      const probeKinds = new Map<HttpProbe['kind'], number>();
      const probes = entry.transport === 'http' ? probesArbitrary : fc.constant<HttpProbe[]>([]);
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(batchArbitrary({ safeTools: t.safeTools }, JSONRPC_FUZZ.batchSize), probes, async (batch, httpProbes) => {
          for (const f of batch) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
          for (const p of httpProbes) probeKinds.set(p.kind, (probeKinds.get(p.kind) ?? 0) + 1);
          const t0 = performance.now();
          const report = await t.exchange(batch, httpProbes);
          exchangeMs += performance.now() - t0;
          frames += report.frames;
          answered += report.answered;
          errors += report.errors;
          reusedIdRefused += report.reusedIdRefused ?? 0;
          for (const [status, n] of Object.entries(report.statuses ?? {})) statuses.set(Number(status), (statuses.get(Number(status)) ?? 0) + n);
        }),
        // One long-running process: a failing batch is reported whole (shrinking would replay on a broken process).
        { seed: JSONRPC_FUZZ.seed, numRuns: JSONRPC_FUZZ.batches, endOnFailure: true },
      );
      const seconds = (performance.now() - started) / 1000;
      console.log(`${entry.name}: ${frames} frames in ${seconds.toFixed(1)} s (${(exchangeMs / 1000).toFixed(1)} s exchanging); ${answered} requests answered, ${errors} error replies; ${JSON.stringify(Object.fromEntries(kinds))}${statuses.size > 0 ? `; HTTP statuses of frames ${JSON.stringify(Object.fromEntries(statuses))}` : ''}${probeKinds.size > 0 ? `; HTTP probes ${JSON.stringify(Object.fromEntries(probeKinds))}, ${reusedIdRefused} reused ids refused while running` : ''}`);
      expect(frames).toBeGreaterThanOrEqual(JSONRPC_FUZZ.minFrames);
      expect(answered).toBeGreaterThan(frames / 4);
    });
  }
});
