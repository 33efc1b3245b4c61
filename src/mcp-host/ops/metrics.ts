// /metrics in Prometheus text format: histograms and counters fed by span ends, kept in our own
// tallies from the start; prom-client (the process metrics, and gauges read from the status when
// scraped) is imported on the first scrape, so an endpoint nobody scrapes never loads it.
import type * as PromClient from 'prom-client';
import type { EndedSpan, SpanSpec, TelemetryListener } from '../../util/telemetry/index.js';
import { Tally } from './metric-tally.js';
import type { ClientRow, ConfigRow, UpstreamRow } from './ops-types.js';
import { upstreamUp } from './upstream-up.js';

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const STATES: UpstreamRow['state'][] = ['idle', 'starting', 'ready', 'failed', 'cancelled', 'closed'];
/** Prometheus text format 0.0.4, which both prom-client's registry and the tallies write. */
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface MetricsReadings {
  upstreams(): UpstreamRow[];
  clients(): ClientRow[];
  inFlight(): number;
  /** The configuration in force, for endpoints that reload it. */
  config?(): ConfigRow | undefined;
}

export interface Metrics extends TelemetryListener {
  readonly contentType: string;
  scrape(): Promise<string>;
}

const str = (v: unknown): string => (v === undefined ? '' : String(v));

export function createMetrics(readings: MetricsReadings): Metrics {
  // Latency by method and outcome (and server): per-tool latency would make a scrape of many tools
  // slow (a series per bucket per tool); per-tool counts are in the counters.
  const served = new Tally('histogram', 'mcp_server_operation_duration_seconds', 'MCP requests served: duration by method and outcome (mcp.server.operation.duration)', ['method', 'outcome'], SECONDS);
  const made = new Tally('histogram', 'mcp_client_operation_duration_seconds', 'MCP requests to upstream servers: duration by server, method and outcome (mcp.client.operation.duration)', ['server', 'method', 'outcome'], SECONDS);
  const upstreamCalls = new Tally('counter', 'switchboard_upstream_calls_total', 'tools/call to upstream servers by server, tool and outcome', ['server', 'tool', 'outcome']);
  const turns = new Tally('counter', 'switchboard_agent_turns_total', 'Agent turns ended, by outcome (completed, failed, aborted)', ['outcome']);
  const turnSeconds = new Tally('histogram', 'switchboard_agent_turn_duration_seconds', 'Agent turn duration', ['outcome'], [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600]);
  const running = new Tally('gauge', 'switchboard_agent_turns_running', 'Agent turns running now');
  const modelSeconds = new Tally('histogram', 'gen_ai_client_operation_duration_seconds', 'Model requests: duration by model and outcome (gen_ai.client.operation.duration)', ['model', 'outcome'], [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]);
  const tokens = new Tally('counter', 'switchboard_model_tokens_total', 'Model tokens by model and type (input, output)', ['model', 'type']);
  const tallies = [served, made, upstreamCalls, turns, turnSeconds, running, modelSeconds, tokens];

  let registry: Promise<PromClient.Registry> | undefined;
  return {
    contentType: CONTENT_TYPE,
    async scrape() {
      registry ??= scrapedRegistry(readings).catch((err: unknown) => {
        registry = undefined; // the next scrape tries again
        throw err;
      });
      const text = await (await registry).metrics();
      return `${text}\n${tallies.map((t) => t.render()).join('\n\n')}\n`;
    },
    started(spec: SpanSpec) {
      if (spec.attributes['gen_ai.operation.name'] === 'invoke_agent') running.inc();
    },
    ended(span: EndedSpan) {
      const a = span.attributes;
      const outcome = span.errorType === undefined ? 'ok' : 'error';
      const seconds = span.durationMs / 1000;
      const method = a['mcp.method.name'];
      if (method !== undefined) {
        const tool = str(a['gen_ai.tool.name']);
        if (span.spec.kind === 'server') {
          served.observe({ method: String(method), outcome }, seconds);
        } else {
          const server = str(a['switchboard.mcp.server']);
          made.observe({ server, method: String(method), outcome }, seconds);
          if (method === 'tools/call') upstreamCalls.inc({ server, tool, outcome });
        }
        return;
      }
      const op = a['gen_ai.operation.name'];
      if (op === 'invoke_agent') {
        running.inc({}, -1);
        const turnOutcome = str(a['switchboard.turn.outcome'] ?? (span.errorType ? 'failed' : 'completed'));
        turns.inc({ outcome: turnOutcome });
        turnSeconds.observe({ outcome: turnOutcome }, seconds);
      } else if (op === 'chat') {
        const model = str(a['gen_ai.request.model']);
        modelSeconds.observe({ model, outcome }, seconds);
        const input = a['gen_ai.usage.input_tokens'];
        const output = a['gen_ai.usage.output_tokens'];
        if (typeof input === 'number') tokens.inc({ model, type: 'input' }, input);
        if (typeof output === 'number') tokens.inc({ model, type: 'output' }, output);
      }
    },
  };
}

/**
 * prom-client's registry, built on the first scrape: the process's own metrics, and gauges read from
 * the endpoint's status at each scrape.
 */
async function scrapedRegistry(readings: MetricsReadings): Promise<PromClient.Registry> {
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  const registers = [registry];
  const before = process.cpuUsage();
  prom.collectDefaultMetrics({ register: registry, prefix: 'switchboard_' });
  // prom-client counts CPU time from the call above; the process ran before it.
  const cpu = (name: string, micros: number) => (registry.getSingleMetric(`switchboard_process_cpu_${name}`) as PromClient.Counter | undefined)?.inc(micros / 1e6);
  cpu('user_seconds_total', before.user);
  cpu('system_seconds_total', before.system);
  cpu('seconds_total', before.user + before.system);

  const upstreams = () => readings.upstreams();
  new prom.Gauge({
    name: 'switchboard_upstream_up',
    help: '1 when the upstream MCP server is ready, or stopped by stop_after_idle_sec (started again on its next use)',
    labelNames: ['server'],
    registers,
    collect() {
      this.reset();
      for (const u of upstreams()) this.set({ server: u.name }, upstreamUp(u) ? 1 : 0);
    },
  });
  new prom.Gauge({
    name: 'switchboard_upstream_state',
    help: 'The upstream MCP server state (1 for the current one)',
    labelNames: ['server', 'state'],
    registers,
    collect() {
      this.reset();
      for (const u of upstreams()) for (const state of STATES) this.set({ server: u.name, state }, u.state === state ? 1 : 0);
    },
  });
  new prom.Counter({
    name: 'switchboard_upstream_restarts_total',
    help: 'Times the upstream MCP server stopped after being ready',
    labelNames: ['server'],
    registers,
    collect() {
      this.reset();
      for (const u of upstreams()) this.inc({ server: u.name }, u.restarts);
    },
  });
  new prom.Gauge({
    name: 'switchboard_upstream_startup_seconds',
    help: 'How long the upstream MCP server took to start (last start)',
    labelNames: ['server'],
    registers,
    collect() {
      this.reset();
      for (const u of upstreams()) if (u.startup_ms !== undefined) this.set({ server: u.name }, u.startup_ms / 1000);
    },
  });
  new prom.Gauge({
    name: 'switchboard_upstream_caller_connections',
    help: 'Connections held to the upstream MCP server for its callers (a server that acts as each caller)',
    labelNames: ['server'],
    registers,
    collect() {
      this.reset();
      for (const u of upstreams()) if (u.identity === 'caller') this.set({ server: u.name }, u.caller_connections ?? 0);
    },
  });
  new prom.Gauge({
    name: 'switchboard_upstream_tools',
    help: 'Tools the upstream MCP server contributes to the catalog',
    labelNames: ['server'],
    registers,
    collect() {
      this.reset();
      for (const u of upstreams()) this.set({ server: u.name }, u.tools);
    },
  });
  new prom.Gauge({
    name: 'switchboard_http_sessions',
    help: 'MCP sessions open on the HTTP endpoint',
    registers,
    collect() {
      this.set(readings.clients().length);
    },
  });
  new prom.Gauge({
    name: 'switchboard_mcp_requests_in_flight',
    help: 'MCP requests served and not yet answered',
    registers,
    collect() {
      this.set(readings.inFlight());
    },
  });

  configMetrics(prom, registers, () => readings.config?.());
  return registry;
}

/**
 * Which config revision this replica runs (compare replicas behind one load balancer), whether the
 * file on disk failed to apply, and how many reloads were applied or refused.
 */
function configMetrics(prom: typeof PromClient, registers: PromClient.Registry[], config: () => ConfigRow | undefined): void {
  new prom.Gauge({
    name: 'switchboard_config_info',
    help: 'The config revision in force (content hash of the config file): 1 for it',
    labelNames: ['revision'],
    registers,
    collect() {
      this.reset();
      const c = config();
      if (c) this.set({ revision: c.revision }, 1);
    },
  });
  new prom.Gauge({
    name: 'switchboard_config_reload_failed',
    help: '1 while the config file on disk could not be applied (the revision in force still serves)',
    registers,
    collect() {
      const c = config();
      if (c) this.set(c.error ? 1 : 0);
    },
  });
  new prom.Counter({
    name: 'switchboard_config_reloads_total',
    help: 'Config reloads by outcome (applied, failed)',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      const c = config();
      if (!c) return;
      this.inc({ outcome: 'applied' }, c.reloads.applied);
      this.inc({ outcome: 'failed' }, c.reloads.failed);
    },
  });
}
