// The gateway's part in acting as each caller upstream: whom a request is made for (the caller the
// host authenticated, with its token kept as a Secret; the static token and stdio are the operator),
// and what a caller who has not signed in to an upstream is asked: a URL-mode elicitation (a
// server-to-client request in 2025-11-25, an input-required round in 2026-07-28) that opens the
// upstream's sign-in page, after which the request goes on; a client that cannot open URLs gets
// an error whose text holds the link.
import type { McpConnectionManager } from '../mcp/index.js';
import type { UpstreamCaller } from '../mcp-client/index.js';
import type { Caller, Req } from '../mcp-host/index.js';
import { isMcpClientError, McpClientError } from '../util/index.js';

/** How long a request waits for its caller to finish signing in after accepting the link (the link's own lifetime). */
export const SIGN_IN_WAIT_MS = 10 * 60_000;

/** The caller an upstream request is made for; undefined for the operator (stdio, the static token). */
export function upstreamCaller(caller: Caller | undefined): UpstreamCaller | undefined {
  if (!caller || caller.kind !== 'token') return undefined;
  return { key: caller.key, subject: caller.subject, ...(caller.inboundToken ? { token: caller.inboundToken } : {}) };
}

/** Whether the requesting client can open a URL it is asked to (URL-mode elicitation, 2025-11-25 on). */
function opensUrls(req: Req): boolean {
  const elicitation = req.clientCapabilities?.elicitation as { url?: unknown } | undefined;
  return elicitation?.url !== undefined;
}

/**
 * `work` for `req` against `server`; when its caller has not signed in there yet, the caller is
 * asked to (see the module comment) and `work` runs again once it has. A declined sign-in, or a
 * client that cannot open the link, fails with an error that says so (and holds the link).
 */
export async function withUpstreamSignIn<T>(manager: McpConnectionManager, req: Req, server: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const caller = upstreamCaller(req.caller);
    if (!isMcpClientError(err, 'upstream_login_required') || !caller) throw err;
    const link = await manager.upstreamLogin(server, caller);
    const text = `MCP server '${server}' acts as each caller, and you have not signed in to it yet.`;
    if (!opensUrls(req)) {
      throw new McpClientError('upstream_login_required', `${text} Open ${link.url} to sign in (the link is yours alone, works once and expires in 10 minutes), then call again.`, { cause: err });
    }
    const answer = (await req.ask({ method: 'elicitation/create', params: { mode: 'url', message: `${text} Sign in to continue.`, url: link.url, elicitationId: link.id } }, { key: `sign-in:${server}` })) as { action?: string };
    if (answer.action !== 'accept') throw new McpClientError('upstream_login_required', `Signing in to MCP server '${server}' was ${answer.action === 'decline' ? 'declined' : 'cancelled'}; call again to be asked again.`, { cause: err });
    await manager.waitForUpstreamLogin(server, caller, AbortSignal.any([req.signal, AbortSignal.timeout(SIGN_IN_WAIT_MS)]));
    // A 2025 session hears that the out-of-band step is done (a 2026-07-28 request has no stream for it).
    if (req.era === 'legacy') await req.notify({ method: 'notifications/elicitation/complete', params: { elicitationId: link.id } }).catch(() => {});
    return work();
  }
}
