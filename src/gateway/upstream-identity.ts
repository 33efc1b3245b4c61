// The gateway's part in acting as each caller upstream: what a caller who has not signed in to an
// upstream is asked: a URL-mode elicitation (a server-to-client request in 2025-11-25, an
// input-required round in 2026-07-28) that opens the upstream's sign-in page, after which the
// request goes on; a client that cannot open URLs gets an error whose text holds the link
// (mcp/upstream-sign-in.ts). Whom a request is made for is mcp-host's `upstreamCaller`.
import { withUpstreamSignIn as signInFor, type McpConnectionManager } from '../mcp/index.js';
import { upstreamCaller, type Req } from '../mcp-host/index.js';

export { upstreamCaller };

/** Whether the requesting client can open a URL it is asked to (URL-mode elicitation, 2025-11-25 on). */
function opensUrls(req: Req): boolean {
  const elicitation = req.clientCapabilities?.elicitation as { url?: unknown } | undefined;
  return elicitation?.url !== undefined;
}

/**
 * `work` for `req` against `server`; when its caller has not signed in there yet, the caller is
 * asked to (see the module comment) and `work` runs again once it has.
 */
export function withUpstreamSignIn<T>(manager: McpConnectionManager, req: Req, server: string, work: () => Promise<T>): Promise<T> {
  return signInFor(
    manager,
    server,
    upstreamCaller(req.caller),
    {
      signal: req.signal,
      ask: async (link, message) => {
        if (!opensUrls(req)) return 'unable';
        const answer = (await req.ask({ method: 'elicitation/create', params: { mode: 'url', message, url: link.url, elicitationId: link.id } }, { key: `sign-in:${server}` })) as { action?: string };
        return answer.action === 'accept' ? 'accept' : answer.action === 'decline' ? 'decline' : 'cancel';
      },
      // A 2025 session hears that the out-of-band step is done (a 2026-07-28 request has no stream for it).
      signedIn: async (link) => {
        if (req.era === 'legacy') await req.notify({ method: 'notifications/elicitation/complete', params: { elicitationId: link.id } }).catch(() => {});
      },
    },
    work,
  );
}
