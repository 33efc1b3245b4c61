// A request as handlers see it (product.ts `Req`), built by the host from the SDK's context: a 2025
// request asks its client with a server-to-client request on its own stream; a 2026-07-28 request
// asks through its input-required round. Either way a client that did not declare the capability is
// refused as its revision says.
import { MissingRequiredClientCapabilityError, ProtocolError, type ClientCapabilities, type InputRequest, type ServerContext, type Transport } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { TraceContext } from '../../util/telemetry/index.js';
import type { CallerView } from '../access/access-rules.js';
import { callerOf, type Caller } from '../access/caller.js';
import type { FlowChannel } from '../flows/input-flows.js';
import { requestCapabilities } from '../flows/tasks-extension.js';
import { requestSpanOf } from '../rpc/transport-decorator.js';
import { legacyRefusal, missingCapability } from './client-capabilities.js';
import type { Era, Notification, Req, Session } from './product.js';

/** setTimeout's ceiling: a user may take as long as they need; the asker's own deadline decides. */
const NO_TIMEOUT_MS = 2_147_483_647;
const AnyResult = z.unknown();

abstract class BaseReq implements Req {
  abstract readonly era: Era;
  readonly caller: Caller | undefined;

  constructor(
    protected readonly ctx: ServerContext,
    readonly view: CallerView,
    /** The transport whose spans name this request's (an observed one underneath), if any. */
    private readonly observed: Transport | undefined,
  ) {
    this.caller = callerOf(ctx.http?.authInfo);
  }

  get id() {
    return this.ctx.mcpReq.id;
  }

  get method(): string {
    return this.ctx.mcpReq.method;
  }

  get meta(): Record<string, unknown> | undefined {
    return this.ctx.mcpReq._meta as Record<string, unknown> | undefined;
  }

  get traceContext(): TraceContext | undefined {
    return requestSpanOf(this.observed, this.ctx.mcpReq.id)?.traceContext();
  }

  notify(notification: Notification): Promise<void> {
    return this.ctx.mcpReq.notify(notification as Parameters<ServerContext['mcpReq']['notify']>[0]);
  }

  abstract readonly signal: AbortSignal;
  abstract readonly clientCapabilities: ClientCapabilities | undefined;
  abstract readonly envelope: Record<string, unknown> | undefined;
  abstract readonly session: Session | undefined;
  abstract readonly suspended: boolean;
  abstract readonly inputResponses: Record<string, unknown> | undefined;
  abstract ask(request: InputRequest, options?: { key?: string; signal?: AbortSignal; raw?: boolean }): Promise<unknown>;
}

/** A request of a 2025 session. */
export class SessionReq extends BaseReq {
  readonly era = 'legacy';
  readonly envelope = undefined;
  readonly suspended = false;
  readonly inputResponses = undefined;

  constructor(
    ctx: ServerContext,
    view: CallerView,
    observed: Transport | undefined,
    readonly session: Session,
    readonly signal: AbortSignal,
  ) {
    super(ctx, view, observed);
  }

  get clientCapabilities(): ClientCapabilities | undefined {
    return this.session.clientCapabilities;
  }

  async ask(request: InputRequest, options: { key?: string; signal?: AbortSignal; raw?: boolean } = {}): Promise<unknown> {
    const refusal = legacyRefusal(request, this.clientCapabilities);
    if (refusal) throw refusal;
    const timing = { signal: options.signal ?? this.signal, timeout: NO_TIMEOUT_MS };
    if (options.raw) return (this.ctx.mcpReq.send as (r: unknown, schema: unknown, o: unknown) => Promise<unknown>)(request, AnyResult, timing);
    return (this.ctx.mcpReq.send as (r: unknown, o: unknown) => Promise<unknown>)(request, timing);
  }
}

/** A 2026-07-28 request (each round of it: the work sees the round it is attached to). */
export class RoundReq extends BaseReq {
  readonly era = 'modern';
  readonly session = undefined;
  readonly clientCapabilities: ClientCapabilities | undefined;

  constructor(
    ctx: ServerContext,
    view: CallerView,
    observed: Transport | undefined,
    /** Its rounds, for a handler that asks; undefined for one that does not. */
    private readonly channel: FlowChannel | undefined,
  ) {
    super(ctx, view, observed);
    this.clientCapabilities = requestCapabilities(ctx);
  }

  get signal(): AbortSignal {
    return this.ctx.mcpReq.signal;
  }

  get envelope(): Record<string, unknown> | undefined {
    return this.ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  }

  get inputResponses(): Record<string, unknown> | undefined {
    return this.ctx.mcpReq.inputResponses as Record<string, unknown> | undefined;
  }

  get suspended(): boolean {
    return this.channel?.suspended === true;
  }

  ask(request: InputRequest, options: { key?: string; signal?: AbortSignal } = {}): Promise<unknown> {
    if (!this.channel) return Promise.reject(new ProtocolError(-32603, `${this.method} cannot ask its client for input`));
    const missing = missingCapability(request, this.clientCapabilities);
    if (missing) {
      // As a 2026-07-28 server answers: the request needs a capability its client did not declare.
      const error = new MissingRequiredClientCapabilityError({ requiredCapabilities: missing });
      this.channel.fail(error);
      return Promise.reject(error);
    }
    return this.channel.ask(request, options);
  }
}
