// What the telemetry listeners keep for the status page and metrics: recent requests served (latency,
// outcome), requests in flight, and agent threads with their running turn, from span starts and ends.
import type { EndedSpan, SpanSpec, TelemetryListener } from '../../util/telemetry/index.js';
import type { CallRow, ThreadRow } from './ops-types.js';

const RECENT_CALLS = 50;
const THREADS_SHOWN = 50;

export class Activity implements TelemetryListener {
  private readonly calls: CallRow[] = [];
  private readonly threads = new Map<string, ThreadRow>();
  private inFlightCount = 0;
  private readonly listeners: (() => void)[] = [];

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  started(spec: SpanSpec): void {
    if (spec.kind === 'server') this.inFlightCount += 1;
    const a = spec.attributes;
    if (a['gen_ai.operation.name'] === 'invoke_agent' && typeof a['gen_ai.conversation.id'] === 'string') {
      const id = a['gen_ai.conversation.id'];
      const row = this.threads.get(id) ?? { threadId: id, turns: 0 };
      this.threads.delete(id);
      this.threads.set(id, { ...row, turnId: String(a['switchboard.turn.id'] ?? ''), model: String(a['gen_ai.request.model'] ?? ''), startedAt: Date.now() });
      this.trimThreads();
      this.changed();
    }
  }

  ended(span: EndedSpan): void {
    const { spec, attributes: a } = span;
    if (spec.kind === 'server') {
      this.inFlightCount -= 1;
      const method = String(a['mcp.method.name'] ?? spec.name);
      const target = a['gen_ai.tool.name'] ?? a['gen_ai.prompt.name'] ?? a['mcp.resource.uri'];
      const row: CallRow = { at: span.endedAt, method, durationMs: span.durationMs, outcome: span.errorType === undefined ? 'ok' : 'error' };
      if (target !== undefined) row.target = String(target);
      if (span.errorType !== undefined) row.errorType = span.errorType;
      this.calls.unshift(row);
      if (this.calls.length > RECENT_CALLS) this.calls.pop();
      this.changed();
    }
    if (a['gen_ai.operation.name'] === 'invoke_agent' && typeof a['gen_ai.conversation.id'] === 'string') {
      const row = this.threads.get(a['gen_ai.conversation.id']);
      if (row) {
        const { turnId: _t, startedAt: _s, ...rest } = row;
        this.threads.set(row.threadId, { ...rest, turns: row.turns + 1, lastOutcome: String(a['switchboard.turn.outcome'] ?? (span.errorType ? 'failed' : 'completed')) });
      }
      this.changed();
    }
  }

  recentCalls(): CallRow[] {
    return [...this.calls];
  }

  /** Threads seen, the most recently active first. */
  threadRows(): ThreadRow[] {
    return [...this.threads.values()].reverse();
  }

  private trimThreads(): void {
    for (const [id, row] of this.threads) {
      if (this.threads.size <= THREADS_SHOWN) return;
      if (row.turnId === undefined) this.threads.delete(id);
    }
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
