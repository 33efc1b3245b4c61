// The one place a product becomes an SDK server: for a 2025 session (initialize with the caller's
// instructions, the product's versions) or a 2026-07-28 request or connection, its handlers
// registered behind the host's pipeline: the caller's view, tasks for a tools/call that asks for one,
// input-required rounds for a handler that asks, and each request counted while it runs.
import { type InitializeRequest, type InitializeResult, type ServerCapabilities, type ServerContext, type Transport } from '@modelcontextprotocol/server';
import { MODERN_REVISION, TASKS_EXTENSION } from '../../protocol/values.js';
import { errorMessage, type Logger } from '../../util/index.js';
import type { AccessPolicy, CallerView } from '../access/access-rules.js';
import { UNRESTRICTED } from '../access/access-rules.js';
import { callerOf } from '../access/caller.js';
import { callSlotOf } from '../access/call-slot.js';
import type { InputFlows } from '../flows/input-flows.js';
import { declaresTasks, extensionRequired } from '../flows/tasks-extension.js';
import { requestKey } from '../rpc/request-guard.js';
import { requestSubject } from '../rpc/request-subject.js';
import { TaskServer } from '../rpc/task-server.js';
import type { HostSession } from './host-session.js';
import type { HostTasks } from './host-tasks.js';
import type { Era, Handler, Product } from './product.js';
import { RoundReq, SessionReq } from './request.js';
import { LEGACY_TASKS_CAPABILITY, legacyTaskHandlers, modernTaskHandlers } from './task-handlers.js';


/** What every server the host builds for one product shares. */
export interface Served {
  readonly product: Product;
  readonly access: AccessPolicy | undefined;
  readonly flows: InputFlows;
  readonly tasks: HostTasks;
  readonly logger: Logger;
  /** The product's handlers per era, the task methods among them when it has tasks: built once (handlerTables). */
  readonly handlers: Readonly<Record<Era, readonly [string, Handler][]>>;
}

/** The SDK's own initialize, which the host calls after setting the caller's instructions. */
interface SdkServerInternals {
  _instructions: string | undefined;
  _oninitialize(request: InitializeRequest): Promise<InitializeResult>;
}

export function viewFor(served: Pick<Served, 'access'>, ctx: Pick<ServerContext, 'http'>): CallerView {
  return served.access?.viewFor(callerOf(ctx.http?.authInfo)) ?? UNRESTRICTED;
}

/**
 * The product's handlers for each era, the task methods among them when it has tasks. Built once
 * when serving starts (a product's handlers are fixed), not for every per-request server.
 */
export function handlerTables(product: Product, tasks: HostTasks): Record<Era, readonly [string, Handler][]> {
  const forEra = (era: Era): [string, Handler][] => {
    const own = Object.entries(product.handlers).filter(([, h]) => h.era === undefined || h.era === era);
    if (!product.tasks) return own;
    return [...own, ...Object.entries(era === 'legacy' ? legacyTaskHandlers(tasks) : modernTaskHandlers(tasks))];
  };
  return { legacy: forEra('legacy'), modern: forEra('modern') };
}

export function capabilitiesFor(product: Product, era: Era): ServerCapabilities {
  const own = product.capabilities(era);
  if (!product.tasks) return { ...own };
  return era === 'legacy' ? { ...own, tasks: LEGACY_TASKS_CAPABILITY } : { ...own, extensions: { ...own.extensions, [TASKS_EXTENSION]: {} } };
}

/** A 2025 session's server: initialize gives the caller's instructions; `opened` runs once it initialized. */
export function legacyServer(served: Served, session: HostSession, observed: () => Transport | undefined, answersCancelled: boolean): TaskServer {
  const { product } = served;
  const server = new TaskServer(product.info, { capabilities: capabilitiesFor(product, 'legacy'), supportedProtocolVersions: [...product.legacyVersions] });
  session.attach(server);
  const sdk = server as unknown as SdkServerInternals;
  server.setRequestHandler('initialize', async (request, ctx) => {
    session.caller = callerOf(ctx.http?.authInfo);
    sdk._instructions = await product.instructions?.(session.view);
    const result = await sdk._oninitialize(request);
    const extra = product.serverInfoFor?.(request.params.clientInfo);
    return extra ? { ...result, serverInfo: { ...result.serverInfo, ...extra } } : result;
  });
  // Handlers are assigned from consts here and below: see hear() in rpc/transport-decorator.ts.
  const opened = () => product.opened?.(session);
  server.oninitialized = opened;
  for (const [method, handler] of served.handlers.legacy) {
    register(server, method, handler, (params, ctx) => {
      const own = answersCancelled ? new AbortController() : undefined;
      const key = requestKey(ctx.mcpReq.id);
      if (own) session.calls.set(key, own);
      const signal = own ? AbortSignal.any([own.signal, ctx.mcpReq.signal]) : ctx.mcpReq.signal;
      const req = new SessionReq(ctx, session.view, observed() ?? server.transport, session, signal);
      session.inFlight += 1;
      return run(served, method, handler, params, req, 'legacy', ctx).finally(() => {
        session.inFlight -= 1;
        if (own && session.calls.get(key) === own) session.calls.delete(key);
      });
    });
  }
  // Cancellation aborts the call, which then answers (Codex's "Turn aborted."), instead of silencing it.
  if (answersCancelled) {
    server.setNotificationHandler('notifications/cancelled', (n) => {
      if (n.params.requestId !== undefined) session.calls.get(requestKey(n.params.requestId))?.abort();
    });
  }
  notifications(served, server, () => ({ view: session.view, session }));
  const onerror = (err: Error) => served.logger.debug('mcp connection error', { error: errorMessage(err) });
  const onclose = () => session.ended();
  server.onerror = onerror;
  server.onclose = onclose;
  return server;
}

/**
 * A 2026-07-28 server: one per HTTP request, or the one pinned to a stdio connection. `only`: the
 * one method a per-request server answers (its `Mcp-Method` header, which the SDK has checked
 * against the body); only that method's handler is registered, as a server that answers one
 * exchange needs no other (docs/performance.md, "Issue 37, ninth round").
 */
export function modernServer(served: Served, instructions: string | undefined, observed: () => Transport | undefined, only?: string): TaskServer {
  const { product } = served;
  const server = new TaskServer(product.info, {
    capabilities: capabilitiesFor(product, 'modern'),
    supportedProtocolVersions: [MODERN_REVISION],
    ...(instructions ? { instructions } : {}),
  });
  for (const [method, handler] of served.handlers.modern) {
    if (only !== undefined && method !== only) continue;
    register(server, method, handler, (params, ctx) => {
      const view = viewFor(served, ctx);
      const transport = () => observed() ?? server.transport;
      if (!handler.asks) return run(served, method, handler, params, new RoundReq(ctx, view, transport(), undefined), 'modern', ctx);
      return served.flows.round(ctx, requestSubject(params) ?? '', (flowCtx, channel) => run(served, method, handler, params, new RoundReq(flowCtx, view, transport(), channel), 'modern', ctx));
    });
  }
  notifications(served, server, (ctx) => ({ view: viewFor(served, ctx), session: undefined }), only);
  // A const, not a literal written as the property's value: see hear() in rpc/transport-decorator.ts.
  const onerror = (err: Error) => served.logger.debug('mcp 2026-07-28 request error', { error: errorMessage(err) });
  server.onerror = onerror;
  return server;
}

/** A handler behind the host: a tools/call asking for a task becomes one when the product's tasks take it. */
async function run(served: Served, method: string, handler: Handler, params: Record<string, unknown>, req: SessionReq | RoundReq, era: Era, ctx: ServerContext): Promise<unknown> {
  const tasks = served.product.tasks;
  if (method === 'tools/call' && tasks) {
    const asked = era === 'legacy' ? params.task !== undefined : declaresTasks(req.clientCapabilities);
    const call = params as Parameters<typeof tasks.start>[0];
    if (!asked && era === 'modern' && (await tasks.runsOnlyAsTask?.(call, req))) throw extensionRequired(`Tool ${call.name} runs only as a task: it`);
    if (asked) {
      // The task keeps the request's concurrent-call slot (concurrent_calls counts running tasks).
      const answer = await served.tasks.start(tasks, params as Parameters<typeof tasks.start>[0], req, callSlotOf(ctx.http?.authInfo));
      if (answer !== undefined) return answer;
    }
  }
  return handler.handle(params, req);
}

function register(server: TaskServer, method: string, handler: Handler, fn: (params: Record<string, unknown>, ctx: ServerContext) => Promise<unknown>): void {
  const set = server.setRequestHandler as unknown as (...args: unknown[]) => void;
  if (handler.params) set.call(server, method, { params: handler.params }, (params: Record<string, unknown>, ctx: ServerContext) => fn(params, ctx));
  else set.call(server, method, (request: { params?: Record<string, unknown> }, ctx: ServerContext) => fn(request.params ?? {}, ctx));
}

function notifications(served: Served, server: TaskServer, context: (ctx: ServerContext) => { view: CallerView; session: HostSession | undefined }, only?: string): void {
  for (const [method, handle] of Object.entries(served.product.notifications ?? {})) {
    if (only !== undefined && method !== only) continue;
    const set = server.setNotificationHandler as unknown as (method: string, fn: (n: { params?: Record<string, unknown> }, ctx: ServerContext) => void) => void;
    set.call(server, method, (n, ctx) => {
      Promise.resolve(handle(n.params ?? {}, context(ctx ?? ({} as ServerContext)))).catch((err: unknown) => served.logger.warn(`${method} failed`, { error: errorMessage(err) }));
    });
  }
}

