// Asking a caller to sign in to an upstream that acts as each caller (its own login), for every
// product that reaches one on a caller's behalf (the gateway's requests, the agent's tool calls):
// the link, the texts, and the request made again once the caller has signed in.
import type { UpstreamCaller } from '../mcp-client/index.js';
import { isMcpClientError, McpClientError } from '../util/index.js';
import type { ManagerOperations } from './manager-operations.js';

/** How long a request waits for its caller to finish signing in after accepting the link (the link's own lifetime). */
export const SIGN_IN_WAIT_MS = 10 * 60_000;

/** How the caller answered the link: opened it (`accept`), refused, or could not be asked (no URL elicitation). */
export type SignInAnswer = 'accept' | 'decline' | 'cancel' | 'unable';

/** Shows `link` to the caller (a URL-mode elicitation); `message` says why. */
export type SignInAsk = (link: { url: string; id: string }, message: string) => Promise<SignInAnswer>;

export interface SignInOptions {
  ask: SignInAsk;
  signal: AbortSignal;
  /** The caller signed in (a 2025 session is told its URL elicitation completed). */
  signedIn?: (link: { url: string; id: string }) => Promise<void>;
  /**
   * A refused sign-in fails as one that could not be asked, with the link (the agent cannot tell a
   * refusal from a client that cannot open URLs; its model can hand the link to its user).
   */
  linkOnRefusal?: boolean;
}

/**
 * `work` on `server` for `caller`; when the caller has not signed in there yet, it is asked to (the
 * link through `ask`), and `work` runs again once it has. A refused sign-in, or a caller that cannot
 * be asked, fails with an error that says so (holding the link when the caller could not be asked).
 */
export async function withUpstreamSignIn<T>(manager: ManagerOperations, server: string, caller: UpstreamCaller | undefined, options: SignInOptions, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isMcpClientError(err, 'upstream_login_required') || !caller) throw err;
    const link = await manager.upstreamLogin(server, caller);
    const text = `MCP server '${server}' acts as each caller, and you have not signed in to it yet.`;
    const openIt = `Open ${link.url} to sign in (the link is yours alone, works once and expires in 10 minutes), then call again.`;
    const answer = await options.ask(link, `${text} Sign in to continue.`);
    if (answer === 'unable' || (answer !== 'accept' && options.linkOnRefusal)) throw new McpClientError('upstream_login_required', `${text} ${openIt}`, { cause: err });
    if (answer !== 'accept') {
      throw new McpClientError('upstream_login_required', `Signing in to MCP server '${server}' was ${answer === 'decline' ? 'declined' : 'cancelled'}; call again to be asked again.`, { cause: err });
    }
    await manager.waitForUpstreamLogin(server, caller, AbortSignal.any([options.signal, AbortSignal.timeout(SIGN_IN_WAIT_MS)]));
    await options.signedIn?.(link);
    return work();
  }
}
