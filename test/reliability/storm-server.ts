// The session storm's pieces, shared by the storms of session-storm.test.ts and reload-storm.test.ts:
// a chaos HTTP upstream that expires its session every few requests and cuts some SSE streams
// (seeded), its counters, and a runner that keeps a number of calls in flight.
import { randomUUID } from 'node:crypto';
import { spawnUrlServer } from '../support/fixture-processes.js';
import { CHAOS, NODE } from './fault-cases.js';

export const STORM = { calls: 500, inFlight: 16, expireEvery: 7, dropRate: 0.02, seed: 20_260_501 } as const;

export interface ChaosStats {
  initializes: number;
  posts: number;
  expired: number;
  notFound: number;
  dropped: number;
}

/** Starts the storm's upstream; `markers` collects its process marker for the caller's cleanup. */
export async function startStormServer(markers: string[]): Promise<{ url: string; stats(): Promise<ChaosStats> }> {
  const marker = `storm-${randomUUID()}`;
  markers.push(marker);
  const { url } = await spawnUrlServer(NODE, [
    CHAOS, '--marker', marker, '--http',
    '--mode', 'http-expire-session,http-drop-sse',
    '--expire-every', String(STORM.expireEvery),
    '--rate-drop', String(STORM.dropRate),
    '--seed', String(STORM.seed),
  ]);
  return { url, stats: async () => (await (await fetch(new URL('/chaos/stats', url))).json()) as ChaosStats };
}

/** Runs `total` calls with at most `inFlight` at a time; returns each call's text or error. */
export async function storm(call: (i: number) => Promise<string>, total: number = STORM.calls, inFlight: number = STORM.inFlight): Promise<{ results: string[]; ms: number }> {
  const results: string[] = new Array<string>(total);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      results[i] = await call(i).catch((err: unknown) => `error: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { results, ms: performance.now() - started };
}
