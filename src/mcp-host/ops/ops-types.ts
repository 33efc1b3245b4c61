// What an operator sees of a running endpoint, whatever the product: its upstreams, connected
// clients, recent calls and agent threads. Products fill in the upstreams; the host and the
// telemetry listeners the rest.

/** Field names as the connection manager's status rows have them, so those serve as they are. */
export interface UpstreamRow {
  name: string;
  state: 'idle' | 'starting' | 'ready' | 'failed' | 'cancelled' | 'closed' | 'disabled';
  /** The protocol revision negotiated last; null before the first. */
  protocol: string | null;
  tools: number;
  startup_ms?: number;
  /** The status line (`switchboard mcp status`'s text) of its last failure (the page keeps it through restarts). */
  error?: string;
  restarts: number;
  required: boolean;
}

export interface ClientRow {
  session: string;
  protocol?: string;
  inFlight: number;
  streams: number;
  idleMs: number;
}

export interface CallRow {
  at: number;
  method: string;
  target?: string;
  durationMs: number;
  outcome: 'ok' | 'error';
  errorType?: string;
}

export interface ThreadRow {
  threadId: string;
  /** The running turn, if one runs. */
  turnId?: string;
  model?: string;
  startedAt?: number;
  lastOutcome?: string;
  turns: number;
}

/** The product's part: its upstreams and whether it is ready to serve. */
export interface OpsSource {
  upstreams(): UpstreamRow[];
  /** Every `required` upstream ready (and the store reachable when one is configured). */
  ready(): Promise<boolean>;
  /** Called on every change worth redrawing (an upstream starting, failing, recovering). */
  onChange(listener: () => void): void;
}

export interface OpsSnapshot {
  title: string;
  version: string;
  startedAt: number;
  now: number;
  upstreams: UpstreamRow[];
  clients: ClientRow[];
  calls: CallRow[];
  threads: ThreadRow[];
}
