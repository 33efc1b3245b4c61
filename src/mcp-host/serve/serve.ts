// The serving entry: a product served on stdio (one connection of either revision, until stdin ends)
// or on Streamable HTTP (2025 sessions and 2026-07-28 requests on one endpoint). One place applies,
// for every request of every revision: the caller's view, rounds, the task table, the audit trail,
// server spans, Codex's refusal texts where the product has them, and the shutdown order.
import type { Readable, Writable } from 'node:stream';
import type { Server, Transport } from '@modelcontextprotocol/server';
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import { errorMessage, type Logger } from '../../util/index.js';
import { UNRESTRICTED } from '../access/access-rules.js';
import { AuditedTransport } from '../access/audit-trail.js';
import type { HttpHost, HttpServeOptions } from '../http/http-host-types.js';
import type { ScopedNotifier } from '../http/scoped-events.js';
import type { Ops } from '../ops/index.js';
import { listenTap } from '../rpc/listen-tap.js';
import { observedTransport } from '../rpc/observed-transport.js';
import { StdioFrameTransport } from '../rpc/stdio-transport.js';
import { legacyServer, modernServer } from './build-server.js';
import { HostSession } from './host-session.js';
import type { Product } from './product.js';
import { guarded, listened, served, type ServeOptions } from './served.js';

export type { ServeOptions } from './served.js';

/** A stdout frames did not drain within this long after stdin ended: exit with them unsent. */
const DRAIN_TIMEOUT_MS = 5_000;
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
 * accepting, ends every session and waiting request, then closes the product. Loaded on first use
 * (serve-http.ts says why).
 */
export async function serveHttp(product: Product, http: HttpServeOptions, options: ServeOptions): Promise<HttpHost> {
  return (await import('./serve-http.js')).serveHttp(product, http, options);
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
