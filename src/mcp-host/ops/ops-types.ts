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
  /** `caller`: it acts as each caller upstream, over one connection per caller (and none of its own). */
  identity?: 'caller';
  /** With identity `caller`: the callers' connections to it held now. */
  caller_connections?: number;
  /** State `idle` because stop_after_idle_sec stopped it at this time (ms since the epoch). */
  stopped_idle_at?: number;
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
  /** What else the product needs to serve (its store reachable); the required upstreams are judged from `upstreams()`. */
  ready(): Promise<boolean>;
  /** Called on every change worth redrawing (an upstream starting, failing, recovering). */
  onChange(listener: () => void): void;
}

/** The configuration an endpoint runs; a reload (file change, SIGHUP) replaces it. */
export interface ConfigRow {
  /** Content hash of the config file in force (12 hex digits; `sha256sum config.toml | cut -c1-12`). */
  revision: string;
  /** When it was applied (ms since the epoch): at start, or by the last reload. */
  appliedAt: number;
  /** The file on disk could not be applied (the revision above still serves): why, and where. */
  error?: { message: string; line?: number; column?: number; at: number };
  /** What the file changed that only a restart applies (with why), while it is not applied. */
  restartNeeded: string[];
  reloads: { applied: number; failed: number };
}

/** Where the configuration's status comes from (the composition root's reloader). */
export interface ConfigSource {
  current(): ConfigRow;
  /** Called after every reload, applied or not. */
  onChange(listener: () => void): void;
}

export interface OpsSnapshot {
  title: string;
  version: string;
  startedAt: number;
  now: number;
  /** Absent for an endpoint that does not reload its configuration. */
  config?: ConfigRow;
  upstreams: UpstreamRow[];
  clients: ClientRow[];
  calls: CallRow[];
  threads: ThreadRow[];
}
