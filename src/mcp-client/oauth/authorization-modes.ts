// What the provider does when the SDK sends it to authorize, by mode: a connection refuses (auth
// required, or insufficient scope), a login hands the URL to its UI, a headless session follows it
// with fetch, a bounded number of times.
import { OAuthAuthRequiredError, OAuthInsufficientScopeError } from './errors.js';
import { followAuthorizationHeadlessly } from './headless.js';
import type { SwitchboardOAuthProvider } from './provider.js';
import { scopesCovered } from './scopes.js';

/** What to do when the SDK wants the user to authorize. */
export type AuthorizationMode =
  /** A connection: never start an authorization; fail with auth_required (or insufficient_scope). */
  | { kind: 'none' }
  /** `switchboard mcp login`: hand the URL to the login UI, which waits for the callback. */
  | { kind: 'interactive'; redirectUrl: string; onAuthorizationUrl: (url: URL) => Promise<void> }
  /** Follow the authorization URL with fetch and exchange the code (auto-approving servers). */
  | { kind: 'headless'; redirectUrl: string; maxAuthorizations?: number };

/** One provider's authorization redirects, and how many headless ones completed. */
export class AuthorizationRedirects {
  private authorizations = 0;
  private completed = 0;

  constructor(private readonly mode: AuthorizationMode) {}

  /** How many headless authorizations completed since last asked (a caller retries its operation after one). */
  takeCompleted(): number {
    const n = this.completed;
    this.completed = 0;
    return n;
  }

  async follow(provider: SwitchboardOAuthProvider, url: URL): Promise<void> {
    const session = provider.session;
    const requested = url.searchParams.get('scope') ?? undefined;
    const creds = await session.current();
    // A token from another authorization server (the resource moved: SEP-2352) says nothing about
    // whether the new one's tokens would be accepted.
    const issuer = session.discoveryState?.authorizationServerMetadata?.issuer;
    const sameIssuer = !issuer || !creds?.tokens?.issuer || creds.tokens.issuer.replace(/\/$/, '') === issuer.replace(/\/$/, '');
    const validToken = creds?.tokens && sameIssuer && !session.isExpiring(creds) ? creds.tokens : undefined;
    switch (this.mode.kind) {
      case 'none':
        if (validToken?.scope && !scopesCovered(requested, validToken.scope)) {
          throw new OAuthInsufficientScopeError(session.serverName, requested, 'interactive');
        }
        throw new OAuthAuthRequiredError(session.serverName);
      case 'interactive':
        await this.mode.onAuthorizationUrl(url);
        return;
      case 'headless': {
        // A server that keeps asking for scopes we already hold will never be satisfied.
        if (validToken?.scope && scopesCovered(requested, validToken.scope)) {
          throw new OAuthInsufficientScopeError(session.serverName, requested, 'retry_limit');
        }
        this.authorizations += 1;
        if (this.authorizations > (this.mode.maxAuthorizations ?? 3)) {
          throw new OAuthInsufficientScopeError(session.serverName, requested, 'retry_limit');
        }
        await followAuthorizationHeadlessly(provider, url);
        this.completed += 1;
        return;
      }
    }
  }
}
