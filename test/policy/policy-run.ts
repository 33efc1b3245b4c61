// Runs the cells of the policy matrix that apply to some roads: one test per cell, grouped by policy
// (so the cells that disturb an upstream, the view cells, run last), each finding its probe by policy
// and road. A cell that applies and has no probe fails as "not yet checked": nothing passes silently.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OAuthFixture } from '../fixtures/oauth-fixture.js';
import { sliceOf, sliceTitle } from '../support/long-runs.js';
import type { OtlpReceiver, ReceivedSpan } from '../support/otlp-receiver.js';
import { waitFor } from '../support/wait.js';
import type { Answer, Conn } from './conn.js';
import { SURFACE_ROWS, type Road } from './policy-matrix.js';
import { POLICIES, type Era, type Policy, type Surface, type Transport } from './policy-table.js';

/** The names a probe uses on one target: tools as its clients call them, resources, prompts. */
export interface Names {
  /** The upstream most probes go to (`pay`, `one`, `t`), and the one outside the team's view, if any. */
  server: string;
  unseenServer?: string;
  echo: { name: string; args: Record<string, unknown>; text: string };
  slow: (ms: number) => { name: string; args: Record<string, unknown> };
  ask?: string;
  notEnabled: string;
  disabled: string;
  denied: string;
  unseenTool?: string;
  task?: { tool: string; args: (steps: number) => Record<string, unknown>; notEnabled: string; disabled: string; denied: string };
  resource?: { readable: string; denied: string; deniedItem: string; unseen?: string; asked: string; spellings: string[]; template: string; deniedTemplate: string; touch: string; seen: string; subscribable: (n: number) => string };
  prompt?: { allowed: string; asked: string; denied: string };
  /** A server outside the view of the `from` group (whose `control` group sees it), and its tool that logs outside any request. */
  hidden?: { server: string; from: Group; control: Group; logLater: string };
}

export type Group = 'team' | 'others' | 'ops';

export interface Target {
  surface: Surface;
  transport: Transport;
  names: Names;
  /** A new client as a new caller of `group` (its own subject: no budget or record is shared with another cell). */
  open(era: Era, group: Group, options?: { raw?: boolean }): Promise<Conn & { subject: string }>;
  /** HTTP only: a token for a new caller of `group`, and where to send it. */
  http?: { url: string; home: string; audience: string; fixture: OAuthFixture; token(group: Group, extra?: Record<string, unknown>): Promise<{ token: string; subject: string }> };
  receiver: OtlpReceiver;
  /** stdio only: a new process sent this initialize (raw, so its `_meta` carries what the probe puts there). */
  initializeRaw?(params: Record<string, unknown>): Promise<void>;
}

export type Probe = (target: Target, road: Road) => Promise<void>;
export type ProbeTable = (policy: Policy, road: Road) => Probe | undefined;

/**
 * Cells that must not overlap another: they time calls against the limit, read what an upstream is
 * subscribed to, kill an upstream, or ask a question that an upstream's relay would find ambiguous
 * while another caller's call runs on that server (and the agent server's fake model is one script).
 */
function oneAtATime(policy: Policy, road: Road): boolean {
  if (policy === 'calls' || policy === 'bound' || policy === 'uri' || policy === 'view') return true;
  if (policy === 'deny') return road.row.road === 'resources/subscribe' || road.row.road === 'subscriptions/listen';
  return policy === 'audit' && road.row.road === 'refusal: replayed requestState';
}

/**
 * `npm test`'s slice of the matrix (test/support/long-runs.ts): a road served in both revisions runs in
 * one of them, the revision alternating row by row, so each surface still runs both; the long runs
 * (`npm run test:reliability`, which CI runs) take every road.
 */
function inSlice(road: Road): boolean {
  const { eras } = road.row;
  if (eras.length < 2) return true;
  return road.era === eras[SURFACE_ROWS[road.surface].indexOf(road.row) % eras.length];
}

export function runMatrix(all: readonly Road[], targetFor: (road: Road) => Target, tables: readonly ProbeTable[]): void {
  const list = sliceOf(all, inSlice);
  const cellCount = (roads: readonly Road[]) => roads.reduce((n, road) => n + POLICIES.filter((p) => 'holds' in road.cells[p]).length, 0);
  describe(sliceTitle('cells', cellCount(list), cellCount(all)), () => runCells(list, targetFor, tables));
}

function runCells(list: readonly Road[], targetFor: (road: Road) => Target, tables: readonly ProbeTable[]): void {
  const cell = (policy: Policy, road: Road) => {
    const { holds, gap } = road.cells[policy] as { holds: string; gap?: string };
    it(`${road.id}: ${holds}${gap ? ` [known gap: ${gap}]` : ''}`, async () => {
      const probe = tables.map((table) => table(policy, road)).find((p) => p !== undefined);
      if (!probe) throw new Error(`not yet checked: no probe for ${policy} on ${road.id}`);
      await probe(targetFor(road), road);
    }, 60_000);
  };
  for (const policy of POLICIES) {
    const applying = list.filter((road) => 'holds' in road.cells[policy]);
    if (applying.length === 0) continue;
    // Cells are independent (each its own caller, trace, task): most run a few at once.
    describe(policy, () => {
      const [serial, parallel] = [applying.filter((r) => oneAtATime(policy, r)), applying.filter((r) => !oneAtATime(policy, r))];
      if (parallel.length > 0) describe.concurrent('at once', () => parallel.forEach((road) => cell(policy, road)));
      if (serial.length > 0) describe('one at a time', () => serial.forEach((road) => cell(policy, road)));
    });
  }
}

let counter = 0;
/** A subject no other cell uses. */
export function freshSubject(prefix: string): string {
  return `${prefix}-${process.pid}-${++counter}`;
}

export function traceparent(): { traceId: string; header: string } {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, header: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
}

/** The server span of a request carrying `traceId`, once exported. */
export function spanOf(receiver: OtlpReceiver, traceId: string, kind = 2): Promise<ReceivedSpan> {
  return waitFor(() => receiver.spans.find((s) => s.traceId === traceId && s.kind === kind && s.service === 'switchboard'), `a span of kind ${kind} in trace ${traceId}`, 5_000);
}

export type AuditRecord = Record<string, unknown> & { subject: string | null; method: string; outcome: string };

/** The records whose line holds `needle` (a subject or name no other cell uses): the trail grows with every cell, only these are parsed. */
export async function auditRecords(home: string, needle: string): Promise<AuditRecord[]> {
  const text = await readFile(path.join(home, 'log', 'audit.jsonl'), 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line.includes(needle)).map((line) => JSON.parse(line) as AuditRecord);
}

/** The first audit record holding `needle` and matching `pred`, once written (the trail is written asynchronously). */
export function auditRecord(home: string, needle: string, pred: (r: AuditRecord) => boolean, what: string, timeoutMs = 5_000): Promise<AuditRecord> {
  return waitFor(async () => (await auditRecords(home, needle)).find(pred), `an audit record of ${what}`, timeoutMs);
}

export function textOf(result: Record<string, unknown> | undefined): string {
  const content = (result?.content ?? []) as { type: string; text?: string }[];
  return content.map((c) => c.text ?? `[${c.type}]`).join('\n');
}

/** A refusal: a JSON-RPC error, or a tool error result; never a success and never a task. Its text. */
export function refusal(answer: Answer, what: string): string {
  expect(answer.result?.task, `${what}: no task`).toBeUndefined();
  expect(answer.result?.resultType, `${what}: no task`).not.toBe('task');
  if (answer.error) return answer.error.message;
  expect(answer.result?.isError, `${what} is refused: ${JSON.stringify(answer)}`).toBe(true);
  return textOf(answer.result);
}

/** A successful answer's result. */
export function served(answer: Answer, what: string): Record<string, unknown> {
  expect(answer.error, `${what}: ${JSON.stringify(answer.error)}`).toBeUndefined();
  expect(answer.status, what).toBe(200);
  return answer.result!;
}

/** What reached the gateway fixture behind the target (its `seen` tool), asked by a new `ops` caller in one 2026-07-28 request. */
export async function upstreamSeen(t: Target): Promise<{ subscribed: string[]; rootsChanged: number }> {
  const ops = await t.open('modern', 'ops');
  return JSON.parse(textOf(served(await ops.send('tools/call', { name: t.names.resource!.seen, arguments: {} }), 'seen'))) as { subscribed: string[]; rootsChanged: number };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
