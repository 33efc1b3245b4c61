// The serving entry: a product served on stdio (one connection of either revision, until stdin ends)
// or on Streamable HTTP (2025 sessions and 2026-07-28 requests on one endpoint). One place applies,
// for every request of every revision: the caller's view, rounds, the task table, the audit trail,
// server spans, Codex's refusal texts where the product has them, and the shutdown order.
import type { Readable, Writable } from 'node:stream';
import type { AuthInfo, Server, Transport } from '@modelcontextprotocol/server';
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import { errorMessage, type Logger } from '../../util/index.js';
import type { Telemetry } from '../../util/telemetry/index.js';
import { UNRESTRICTED, type AccessPolicy } from '../access/access-rules.js';
import { AuditedTransport, auditedServer, type AuditSink } from '../access/audit-trail.js';
import { callerOf } from '../access/caller.js';
import { InputFlows } from '../flows/input-flows.js';
import type { RequestStateKey } from '../flows/request-state.js';
import { retryHolders, TaskIds } from '../flows/task-ids.js';
import { closingAlso, HTTP_DEFAULTS, startHttpHost, type HttpHost, type HttpServeOptions } from '../http/http-host.js';
import { createModernLeg } from '../http/modern-leg.js';
import type { ScopedNotifier } from '../http/scoped-events.js';
import type { Ops } from '../ops/index.js';
import { listenTap } from '../rpc/listen-tap.js';
import { observedTransport } from '../rpc/observed-transport.js';
import { errorResponseFor, RequestGuard } from '../rpc/request-guard.js';
import { StdioFrameTransport } from '../rpc/stdio-transport.js';
import { handlerTables, isDiscovery, legacyServer, modernServer, type Served } from './build-server.js';
import { HostSession } from './host-session.js';
import { HostTasks } from './host-tasks.js';
import type { Product } from './product.js';

/** A stdout frames did not drain within this long after stdin ended: exit with them unsent. */
const DRAIN_TIMEOUT_MS = 5_000;
/** SSE `retry:` announced on resumable HTTP streams, unless the caller sets another. */
const SSE_RETRY_MS = 1_000;

export interface ServeOptions {
  logger: Logger;
  /** [server_auth] rules: what each HTTP caller may see and use (absent: everyone everything). */
  access?: AccessPolicy;
  /** Where one record per served request goes. */
  audit?: AuditSink;
  /** A server span per request on stdio (HTTP requests are observed by the host's ops). */
  telemetry?: Telemetry;
}

export interface StdioIO {
  stdin: Readable;
  stdout: Writable;
  /** Resolves when the process was asked to stop (SIGINT/SIGTERM): handled like stdin EOF. */
  stop?: Promise<unknown>;
  /** Operations routes on a listener of their own (`--metrics-listen`): they see the product's ops source. */
  ops?: Pick<Ops, 'setSource'>;
}

export interface StdioResult {
  /** 0, or 1 when stdout failed or could not be flushed. */
  exitCode: number;
  /** Frames still wait for a reader that never came: only exiting the process drops them. */
  outputStuck: boolean;
}

function served(product: Product, options: ServeOptions, key: RequestStateKey | undefined): Served & { ids: TaskIds } {
  const ids = new TaskIds(key);
  const tasks = new HostTasks(ids, options.logger);
  return { product, access: options.access, flows: new InputFlows({ logger: options.logger, ...(key ? { key } : {}) }), tasks, logger: options.logger, ids, handlers: handlerTables(product, tasks) };
}

/** A listen stream opened, told to the product with its caller and that caller's view. */
function listened(product: Product, s: Served, uris: string[], auth: AuthInfo | undefined, ended: AbortSignal): void {
  const caller = callerOf(auth);
  product.listening?.(uris, s.access?.viewFor(caller) ?? UNRESTRICTED, ended, caller);
}

/** Codex's refusal texts before the SDK sees a request, for a product that has them. */
function guarded(s: Served, transport: Transport, stdio: boolean): { transport: Transport; guard?: RequestGuard } {
  const texts = s.product.texts;
  if (!texts) return { transport };
  const methods = (era: 'legacy' | 'modern') => new Set(s.handlers[era].map(([m]) => m));
  const legacy = new Set(['initialize', 'ping', ...methods('legacy')]);
  const modern = stdio ? new Set(['server/discover', ...[...methods('modern')].filter((m) => !legacy.has(m))]) : new Set<string>();
  const guard = new RequestGuard(transport, legacy, texts, modern);
  return { transport: guard, guard };
}

/** One connection being served (a stdio pipe, an in-memory pair). */
export interface Connection {
  /** Requests being handled now (a 2025 connection's; 0 for a 2026-07-28 one). */
  readonly inFlight: number;
  /** Requests being handled and its tasks whose work still runs. */
  readonly running: number;
  /** Ends the connection: running requests abort, the pinned server closes. */
  close(): Promise<void>;
}

/** A product being served: connections of either revision, one task table, one set of rounds. */
export interface Serving {
  /** Serves one connection on `transport`; its first message decides its revision (the SDK's serveStdio). */
  connect(transport: Transport): Connection;
  /** After the last connection: every waiting round and task ends, then the product closes. */
  close(): Promise<void>;
}

export function startServing(product: Product, options: ServeOptions): Serving {
  const { logger } = options;
  const s = served(product, options, undefined);
  const unwatch: (() => void)[] = [];
  return {
    connect(raw) {
      let session: HostSession | undefined;
      // A 2025 session's negotiated revision (a 2026-07-28 request claims its own in its envelope).
      const protocolVersion = () => session?.protocolVersion;
      const observed = options.telemetry?.active ? observedTransport(raw, options.telemetry, { transport: 'pipe', protocolVersion, currentSpan: product.currentSpan !== false }) : raw;
      const tapped = listenTap(observed, (uris, auth, ended) => listened(product, s, uris, auth, ended));
      const { transport } = guarded(s, options.audit ? new AuditedTransport(tapped, options.audit, product.describe) : tapped, true);
      const handle = sdkServeStdio(
        async (ctx) => {
          if (ctx.era === 'legacy') {
            const opened = new HostSession(logger, s.access);
            session = opened;
            opened.onClose(() => s.tasks.sessionClosed(opened));
            return legacyServer(s, opened, () => observed, product.answersCancelled === true);
          }
          const server = modernServer(s, await product.instructions?.(UNRESTRICTED), () => observed);
          if (product.watch) unwatch.push(product.watch(serverNotifier(server, logger)));
          return server;
        },
        { transport, onerror: (err) => logger.debug('mcp connection error', { error: errorMessage(err) }) },
      );
      return {
        get inFlight() {
          return session?.inFlight ?? 0;
        },
        get running() {
          return session ? session.inFlight + s.tasks.running(`session:${session.id}`) : 0;
        },
        async close() {
          session?.ended();
          await handle.close().catch(() => {});
        },
      };
    },
    async close() {
      for (const stop of unwatch.splice(0)) stop();
      s.flows.close();
      s.tasks.close();
      await product.close?.();
    },
  };
}

/** Serve one client on stdin/stdout until stdin ends; its first message decides its revision. */
export async function serveStdio(product: Product, io: StdioIO, options: ServeOptions): Promise<StdioResult> {
  const { logger } = options;
  const frames = new StdioFrameTransport(io.stdin, io.stdout, logger);
  if (product.ops) io.ops?.setSource(product.ops);
  const serving = startServing(product, options);
  const connection = serving.connect(frames);
  logger.info(`${product.logAs?.name ?? product.info.name} serving on stdio`, product.logAs?.fields);
  await Promise.race([frames.ended, io.stop?.then(() => frames.close())]);
  await frames.ended;
  logger.info('stdio closed; shutting down', { reason: frames.closeReason });
  await connection.close();
  await serving.close();
  const drained = await frames.drain(DRAIN_TIMEOUT_MS);
  if (!drained) logger.warn('stdout was not drained in time; exiting with unsent frames', { timeoutMs: DRAIN_TIMEOUT_MS });
  const failed = frames.closeReason === 'output_failed' || frames.closeReason === 'line_too_long' || !drained;
  return { exitCode: failed ? 1 : 0, outputStuck: !drained && frames.closeReason !== 'output_failed' };
}

/**
 * Serve Streamable HTTP: 2025 clients in sessions, 2026-07-28 clients per request. close() stops
 * accepting, ends every session and waiting request, then closes the product.
 */
export async function serveHttp(product: Product, http: HttpServeOptions, options: ServeOptions): Promise<HttpHost> {
  const { logger } = options;
  if (product.ops) http.ops?.setSource(product.ops);
  const s = served(product, options, http.requestStateKey);
  const leg = createModernLeg(
    async (ctx) => {
      const view = s.access?.viewFor(callerOf(ctx.authInfo)) ?? UNRESTRICTED;
      const instructions = isDiscovery(ctx.requestInfo?.headers) ? await product.instructions?.(view) : undefined;
      const server = modernServer(s, instructions, () => undefined);
      return options.audit ? auditedServer(server, options.audit, product.describe) : server;
    },
    {
      logger,
      maxBodyBytes: http.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes,
      retries: retryHolders(s.flows, s.ids),
      ...(options.audit ? { audit: options.audit } : {}),
      ...(product.listening ? { onListen: (uris: string[], auth: AuthInfo | undefined, ended: AbortSignal) => listened(product, s, uris, auth, ended) } : {}),
      ...(product.scopeOf
        ? {
            scopeOf: (auth: AuthInfo | undefined) => {
              const caller = callerOf(auth);
              return product.scopeOf!(s.access?.viewFor(caller) ?? UNRESTRICTED, caller);
            },
          }
        : {}),
    },
  );
  const unwatch = product.watch?.(leg.notify);
  let host: HttpHost;
  try {
    host = await startHttpHost({
      retryIntervalMs: SSE_RETRY_MS,
      ...http,
      currentSpan: product.currentSpan !== false,
      ...(product.describe ? { describe: product.describe } : {}),
      logger,
      modern: leg,
      async openSession(sessionTransport) {
        const session = new HostSession(logger, s.access);
        session.onClose(() => s.tasks.sessionClosed(session));
        const audited = options.audit ? new AuditedTransport(sessionTransport, options.audit, product.describe) : sessionTransport;
        const { transport, guard } = guarded(s, audited, false);
        const server = legacyServer(s, session, () => sessionTransport, product.answersCancelled === true);
        await server.connect(transport);
        return {
          // Only a reused id is refused before the transport: it would otherwise re-route the running call's stream.
          ...(guard ? { refusal: (message) => errorResponseFor(guard, message) } : {}),
          busy: () => session.inFlight > 0 || s.tasks.running(`session:${session.id}`) > 0,
          protocolVersion: () => session.protocolVersion,
          close: () => session.close(),
        };
      },
    });
  } catch (err) {
    unwatch?.();
    s.flows.close();
    await leg.close();
    await product.close?.();
    throw err;
  }
  return closingAlso(host, async () => {
    unwatch?.();
    s.flows.close();
    s.tasks.close();
    await product.close?.();
  });
}

/** A stdio 2026-07-28 connection's own notifications as the notifier its product publishes to (the SDK routes them onto its listen streams). */
function serverNotifier(server: Server, logger: Logger): ScopedNotifier {
  const sent = (p: Promise<void>) => void p.catch((err: unknown) => logger.debug('a change notification was not sent', { error: errorMessage(err) }));
  return {
    toolsChanged: () => sent(server.sendToolListChanged()),
    promptsChanged: () => sent(server.sendPromptListChanged()),
    resourcesChanged: () => sent(server.sendResourceListChanged()),
    resourceUpdated: (uri) => sent(server.sendResourceUpdated({ uri })),
  };
}
