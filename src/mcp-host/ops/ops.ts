// An endpoint's operations side: the telemetry its requests are observed with (tracer, metrics,
// recent activity), and the routes operators use: /healthz, /readyz, /metrics, the status page at /
// with its live feed (/ops/events) and snapshot (/ops/status).
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { createTelemetry, type Telemetry, type TelemetryListener, type Tracer } from '../../util/telemetry/index.js';
import { Activity } from './activity.js';
import { createMetrics, type Metrics } from './metrics.js';
import type { ClientRow, ConfigRow, ConfigSource, OpsSnapshot, OpsSource, UpstreamRow } from './ops-types.js';
import { renderSections } from './status-html.js';
import { requiredUpstreamsUp } from './upstream-up.js';
import { renderPage } from './status-page.js';

/** How often the live feed is redrawn without a change (ages, idle times), and its keep-alive. */
const REFRESH_MS = 5_000;
/** Changes in a burst are drawn once. */
const COALESCE_MS = 100;

export interface OpsOptions {
  title: string;
  version: string;
  /** The OpenTelemetry tracer when trace export is configured. */
  tracer: Tracer | null;
}

/** What the host decided about one request before handing it here. */
export interface OpsGuard {
  /** Why a browser's Host/Origin is refused, or null. */
  refused: string | null;
  authorized: boolean;
}

export interface Ops {
  readonly telemetry: Telemetry;
  /** The product's upstreams and readiness (set once the product is built). */
  setSource(source: OpsSource): void;
  /** The configuration in force and its reloads (commands that reload it). */
  setConfig(source: ConfigSource): void;
  /** Where connected clients come from (the HTTP host's sessions). */
  setClients(clients: () => ClientRow[]): void;
  snapshot(): OpsSnapshot;
  /** Answers `pathname` if it is an operations route; false otherwise. */
  serve(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, guard: OpsGuard): Promise<boolean>;
  close(): Promise<void>;
}

const EMPTY_SOURCE: OpsSource = { upstreams: () => [], ready: async () => true, onChange: () => {} };

/**
 * /readyz's body: the verdict, then the config revision; a file that could not be applied is named by
 * line and column to anyone (a probe, an operator's curl), and with its whole error to a token holder.
 */
function readyText(ready: boolean, config: ConfigRow | undefined, authorized: boolean): string {
  const lines = [ready ? 'ready' : 'not ready'];
  if (config) lines.push(`config revision ${config.revision}`);
  const error = config?.error;
  if (error) {
    const where = error.line !== undefined ? ` at line ${error.line}${error.column !== undefined ? `, column ${error.column}` : ''}` : '';
    lines.push(`config reload failed${where}; revision ${config.revision} still serves${authorized ? `: ${error.message}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

function text(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(body);
}

export async function createOps(options: OpsOptions): Promise<Ops> {
  const startedAt = Date.now();
  let source = EMPTY_SOURCE;
  let config: ConfigSource | undefined;
  let clients: () => ClientRow[] = () => [];
  const activity = new Activity();
  const metrics: Metrics = createMetrics({ upstreams: () => source.upstreams(), clients: () => clients(), inFlight: () => activity.inFlight, config: () => config?.current() });
  const listeners: TelemetryListener[] = [metrics, activity];
  const telemetry = createTelemetry({ tracer: options.tracer, listeners });
  const feeds = new Set<http.ServerResponse>();
  let pending: NodeJS.Timeout | undefined;

  // A server retrying shows its last failure while it starts again, and after it recovered.
  const lastErrors = new Map<string, string>();
  const upstreams = (): UpstreamRow[] =>
    source.upstreams().map((u) => {
      if (u.error) lastErrors.set(u.name, u.error);
      const error = u.error ?? lastErrors.get(u.name);
      return error === undefined ? u : { ...u, error };
    });
  const snapshot = (): OpsSnapshot => ({
    title: options.title,
    version: options.version,
    startedAt,
    now: Date.now(),
    ...(config ? { config: config.current() } : {}),
    upstreams: upstreams(),
    clients: clients(),
    calls: activity.recentCalls(),
    threads: activity.threadRows(),
  });
  const frame = (): string => `event: status\n${renderSections(snapshot()).split('\n').map((l) => `data: ${l}`).join('\n')}\n\n`;
  const push = () => {
    pending = undefined;
    if (feeds.size === 0) return;
    const f = frame();
    for (const res of feeds) res.write(f);
  };
  const changed = () => {
    if (feeds.size > 0) pending ??= setTimeout(push, COALESCE_MS);
  };
  activity.onChange(changed);
  const refresh = setInterval(push, REFRESH_MS);
  refresh.unref();

  const feed = (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    res.write(frame());
    feeds.add(res);
    req.on('close', () => feeds.delete(res));
  };

  return {
    telemetry,
    setSource(s) {
      source = s;
      // Read at each change, so a failure is remembered even when nobody is looking then.
      s.onChange(() => {
        upstreams();
        changed();
      });
    },
    setConfig(c) {
      config = c;
      c.onChange(changed);
    },
    setClients(c) {
      clients = c;
    },
    snapshot,
    async serve(req, res, pathname, guard) {
      switch (pathname) {
        case '/healthz':
          text(res, 200, 'ok\n');
          return true;
        case '/readyz': {
          const ready = await (async () => requiredUpstreamsUp(source.upstreams()) && (await source.ready()))().catch(() => false);
          text(res, ready ? 200 : 503, readyText(ready, config?.current(), guard.authorized));
          return true;
        }
        case '/':
        case '/metrics':
        case '/ops/events':
        case '/ops/status':
          break;
        default:
          return false;
      }
      // Only reads are operators' views: anything else (a client posting to the wrong path) gets the
      // endpoint's own JSON-RPC answer, as before these routes existed.
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      if (guard.refused !== null) {
        text(res, 403, `Forbidden: ${guard.refused}\n`);
        return true;
      }
      if (pathname === '/') {
        // The shell reveals nothing: the data comes from /ops/events, with the token.
        const nonce = randomBytes(16).toString('base64');
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
          'referrer-policy': 'no-referrer',
          'x-content-type-options': 'nosniff',
        });
        res.end(renderPage({ title: options.title, version: options.version, nonce }));
        return true;
      }
      if (!guard.authorized) {
        text(res, 401, 'Unauthorized: send "Authorization: Bearer <token>" with the server\'s token\n', { 'WWW-Authenticate': 'Bearer realm="switchboard"' });
        return true;
      }
      if (pathname === '/metrics') text(res, 200, await metrics.scrape(), { 'content-type': metrics.contentType });
      else if (pathname === '/ops/status') {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(snapshot()));
      } else feed(req, res);
      return true;
    },
    async close() {
      clearInterval(refresh);
      if (pending) clearTimeout(pending);
      for (const res of feeds) res.end();
      feeds.clear();
      await telemetry.shutdown();
    },
  };
}
