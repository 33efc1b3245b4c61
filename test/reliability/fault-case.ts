// What a fault-matrix row is (FaultCase, and the CaseRun it fills in), and the expectations and steps
// the rows of fault-cases.ts and fault-cases-2026.ts share.
import { expect } from 'vitest';
import type { CallOutcome, RunningSubject, StartupOutcome } from './subjects.js';

export interface CaseRun {
  /** The subject's name: where the gateway legitimately differs from the manager, rows say how. */
  subject: string;
  startup: StartupOutcome;
  calls: CallOutcome[];
  /** Observations an exercise records (tool counts, restarts). */
  notes: string[];
  /** Every status line reporting a failure of the chaos server, filled in after the exercise. */
  failureLines: string[];
}

export interface FaultCase {
  /** `stdio/<mode>` or `http/<mode>`: the matrix row. */
  id: string;
  transport: 'stdio' | 'http';
  /** Chaos-server arguments after --marker (modes and flags). */
  chaosArgs: string[];
  /** Extra [mcp_servers.chaos] keys (over generous default timeouts). */
  config?: Record<string, unknown>;
  /** Manager backoff before a failed server is tried again (default 60 s: no retry inside a row). */
  restartDelayMs?: number;
  /** What is done to the chaos server once its first startup outcome is known. */
  exercise(subject: RunningSubject, run: CaseRun): Promise<void>;
  verify(run: CaseRun): void;
  /** The outcome in words, for the matrix in docs/reliability.md. */
  outcome: string;
}

export const ok = (text: string) => expect.objectContaining({ ok: true, text, isError: false });
export const fails = (error: RegExp) => expect.objectContaining({ ok: false, error: expect.stringMatching(error) });
export const ready = (run: CaseRun) => expect(run.startup).toEqual({ state: 'ready' });

/** Calls the chaos server's `tool` and records the outcome in the run. */
export async function call(subject: RunningSubject, run: CaseRun, tool: string, args: Record<string, unknown>): Promise<CallOutcome> {
  const outcome = await subject.call('chaos', tool, args);
  run.calls.push(outcome);
  return outcome;
}
