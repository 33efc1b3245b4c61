// Server-initiated elicitation goes to the call that is running on that server (the newest one), or
// to the host's handler when no call is waiting; with neither, it is declined.
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { HandlerContext } from '../mcp-client/index.js';

/** A question a server asks while one of your calls runs (`elicitation/create`). */
export interface CallElicitation {
  server: string;
  /** The JSON-RPC id of the server's elicitation request. */
  id: string | number;
  request: Record<string, unknown>;
}

/** Answers a server's question during a call: accept (with `content`), decline or cancel. */
export type CallElicitationHandler = (elicitation: CallElicitation) => Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }>;

const noop = (): void => {};

type HostHandler = (request: ElicitRequest['params'], ctx: HandlerContext) => Promise<ElicitResult>;

export class ElicitationRouter {
  private readonly active = new Map<string, CallElicitationHandler[]>();

  /** Register a running call's handler; the returned function removes it. */
  enter(server: string, handler: CallElicitationHandler | undefined): () => void {
    if (!handler) return noop;
    const list = this.active.get(server) ?? [];
    list.push(handler);
    this.active.set(server, list);
    return () => {
      const i = list.indexOf(handler);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.active.delete(server);
    };
  }

  /** `key`: the calls it may go to (a caller's own connection: that caller's, see routeKey); default the server's. */
  async route(server: string, request: ElicitRequest['params'], ctx: HandlerContext, host: HostHandler | undefined, key = server): Promise<ElicitResult> {
    const handler = this.active.get(key)?.at(-1);
    if (handler) {
      const answer = await handler({ server, id: ctx.requestId, request: request as unknown as Record<string, unknown> });
      return answer.action === 'accept' ? { action: 'accept', content: (answer.content ?? {}) as ElicitResult['content'] } : { action: answer.action };
    }
    if (host) return host(request, ctx);
    return { action: 'decline' };
  }
}

/** Whose calls an elicitation of `server` may go to: on a caller's own connection (`callerKey`), that caller's only. */
export function routeKey(server: string, callerKey: string | undefined): string {
  return callerKey === undefined ? server : `${server}\u0000${callerKey}`;
}
