// The seam through which the connection manager acts as a caller upstream (identity = "caller"):
// who the caller is (its key, and its validated inbound token held as a Secret) and the credential
// one caller presents to one server. The OAuth layer implements it (oauth/caller-identities.ts);
// the manager only holds connections made with it.
import type { AuthProvider, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { CallerIdentityKind, McpServerConfig } from '../config/index.js';
import type { Secret } from '../util/index.js';

/** The caller a request is made for, as the host authenticated it. */
export interface UpstreamCaller {
  /** Stable across the caller's tokens (`<issuer>#<subject>`): the key of its connections and credentials. */
  readonly key: string;
  /** The caller's validated access token, for token exchange; absent for a caller that has none. */
  readonly token?: Secret;
  /** Its subject, shown on the login page so a user sees whom the login is for. */
  readonly subject?: string | null;
}

/** Which identity reached an upstream: the operator's, or the caller's by one of three kinds. */
export type UpstreamIdentityKind = 'operator' | CallerIdentityKind;

/** One caller's credential for one server, as a connection of that caller presents it. */
export interface CallerAuth {
  readonly kind: CallerIdentityKind;
  readonly provider: AuthProvider | OAuthClientProvider;
  /** A newer request of the caller: its token is the one to exchange from now on. */
  renew(caller: UpstreamCaller): void;
  /**
   * Whether the credential still holds (a stored login that was revoked does not): checked before
   * each use, so a revocation on any replica takes effect at the next call.
   */
  current(): Promise<boolean>;
}

export interface UpstreamIdentities {
  /** The caller's credential for `server`; a caller that must sign in first gets an McpClientError `upstream_login_required`. */
  authFor(server: McpServerConfig, caller: UpstreamCaller): Promise<CallerAuth>;
  /**
   * A caller connection failed to authenticate (its login was revoked at the authorization server,
   * or its refresh token expired): the error to answer with, asking for a new login where one helps.
   */
  authFailed(server: McpServerConfig, caller: UpstreamCaller, err: unknown): Promise<unknown>;
  /** A sign-in link for `caller` to `server`: bound to that caller, single use, short-lived. */
  beginLogin(server: McpServerConfig, caller: UpstreamCaller): Promise<{ url: string; id: string }>;
  /** Resolves once `caller` holds a credential for `server` (signed in here or on another replica); rejects when `signal` aborts. */
  waitForLogin(server: McpServerConfig, caller: UpstreamCaller, signal: AbortSignal): Promise<void>;
}
