// One token request for a stored login or a credential that needs none: the refresh_token grant
// (keeping the old refresh token when the server sends none), or a new token from a grant without a
// browser; failures become typed errors that tell a dead login (auth_required), a refused credential
// (auth_required, saying what to check) and a transient failure (oauth_refresh_failed) apart.
import {
  OAuthError,
  OAuthErrorCode,
  fetchToken,
  refreshAuthorization,
  selectResourceURL,
  type OAuthDiscoveryState,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { errorMessage, isSwitchboardError } from '../../util/index.js';
import type { StoredOAuthCredentials } from './credentials.js';
import { DISCOVERY_TIMEOUT_MS, discoverAuthorizationState, fetchWithTimeout } from './discovery.js';
import { OAuthAuthRequiredError, OAuthCredentialError, OAuthRefreshFailedError } from './errors.js';
import { refusedGrantText } from './machine-grants.js';
import type { SwitchboardOAuthProvider } from './provider.js';

const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

/** OAuth error codes that mean the stored login is dead and only a new login helps. */
const LOGIN_INVALID = new Set<string>([OAuthErrorCode.InvalidGrant, OAuthErrorCode.InvalidClient, OAuthErrorCode.UnauthorizedClient]);
/** ... and, for a credential that needs no login, that it is refused: asking again would not help. */
const GRANT_REFUSED = new Set<string>([...LOGIN_INVALID, OAuthErrorCode.InvalidScope, OAuthErrorCode.UnsupportedGrantType]);

/** The RFC 8707 resource to ask for: as auth() chooses it, the metadata's string verbatim (SDK fix #1968). */
export async function resourceIndicator(provider: SwitchboardOAuthProvider, discovery: OAuthDiscoveryState): Promise<string | URL | undefined> {
  const selected = await selectResourceURL(provider.session.serverUrl, provider, discovery.resourceMetadata);
  return selected && discovery.resourceMetadata && !provider.validateResourceURL ? discovery.resourceMetadata.resource : selected;
}

/** A new token from a grant without a browser (client credentials, workload identity, identity assertion). */
export async function machineToken(provider: SwitchboardOAuthProvider, scope?: string): Promise<StoredOAuthTokens> {
  const session = provider.session;
  const name = session.serverName;
  try {
    const discovery = await discover(provider);
    const metadata = discovery.authorizationServerMetadata;
    const issuer = metadata?.issuer ?? String(discovery.authorizationServerUrl);
    const fetchFn = fetchWithTimeout({ timeoutMs: TOKEN_REQUEST_TIMEOUT_MS });
    const tokens = await fetchToken(provider, discovery.authorizationServerUrl, { metadata, resource: await resourceIndicator(provider, discovery), scope, fetchFn });
    session.logger.info('obtained OAuth tokens', { server: name, grant: provider.grant.kind });
    return { ...tokens, issuer };
  } catch (err) {
    if (err instanceof OAuthCredentialError || isSwitchboardError(err, 'config')) throw err;
    if (err instanceof OAuthError && GRANT_REFUSED.has(err.code)) {
      session.logger.warn('OAuth token request refused', { server: name, error: err.code });
      throw new OAuthCredentialError(name, refusedGrantText(provider.grant, err), { cause: err, oauthError: err.code });
    }
    throw transientFailure(provider, err);
  }
}

/** A grant without a browser needs no login: the stored token while it is good, else a new one (under the refresh gate). */
export async function usableMachineToken(provider: SwitchboardOAuthProvider): Promise<StoredOAuthTokens | undefined> {
  const session = provider.session;
  const fresh = await session.withRefreshGate(async () => {
    const creds = await session.current();
    if (creds?.tokens && !session.isExpiring(creds)) return creds;
    return session.persistTokens(await machineToken(provider), creds);
  });
  return fresh.tokens;
}

/** `mcp login` for a grant without a browser: a new token now, stored. */
export async function storeNewMachineToken(provider: SwitchboardOAuthProvider, scope?: string): Promise<StoredOAuthTokens | undefined> {
  // The DPoP key exists before the refresh gate is taken (the token request signs with it).
  await provider.dpop?.();
  const session = provider.session;
  const fresh = await session.withRefreshGate(async () => session.persistTokens(await machineToken(provider, scope), await session.reload()));
  return fresh.tokens;
}

/** The refresh_token grant for a stored login. */
export async function refreshCredentials(provider: SwitchboardOAuthProvider, base: StoredOAuthCredentials | undefined): Promise<StoredOAuthTokens> {
  if (provider.isMachineGrant && !base?.tokens?.refresh_token) return machineToken(provider);
  const session = provider.session;
  const name = session.serverName;
  const fetchFn = fetchWithTimeout({ fetch: undefined, timeoutMs: TOKEN_REQUEST_TIMEOUT_MS });
  try {
    const discovery = await discover(provider);
    const authorizationServerUrl = discovery.authorizationServerUrl;
    const metadata = discovery.authorizationServerMetadata;
    const issuer = metadata?.issuer ?? String(authorizationServerUrl);
    const refreshToken = base?.tokens?.refresh_token;
    if (!refreshToken) throw new OAuthAuthRequiredError(name);
    const clientInformation = await provider.clientInformation({ issuer });
    if (!clientInformation) throw new OAuthAuthRequiredError(name);
    const tokens = await refreshAuthorization(authorizationServerUrl, {
      metadata,
      clientInformation,
      refreshToken,
      resource: await resourceIndicator(provider, discovery),
      addClientAuthentication: provider.addClientAuthentication,
      dpop: await provider.dpop?.(),
      fetchFn,
    });
    session.logger.info('refreshed OAuth tokens', { server: name });
    return { ...tokens, issuer };
  } catch (err) {
    if (err instanceof OAuthAuthRequiredError || err instanceof OAuthRefreshFailedError) throw err;
    if (err instanceof OAuthError && LOGIN_INVALID.has(err.code)) {
      session.logger.warn('OAuth refresh rejected; the login is no longer valid', { server: name, error: err.code });
      await session.dropTokens();
      // A credential that needs no login simply asks again.
      if (provider.isMachineGrant) return machineToken(provider);
      throw new OAuthAuthRequiredError(name, { cause: err });
    }
    throw transientFailure(provider, err);
  }
}

function transientFailure(provider: SwitchboardOAuthProvider, err: unknown): OAuthRefreshFailedError {
  provider.session.logger.warn('OAuth token request failed', { server: provider.session.serverName, error: errorMessage(err) });
  const detail = err instanceof OAuthError ? `${err.code}: ${err.message}` : errorMessage(err);
  return new OAuthRefreshFailedError(provider.session.serverName, detail, { cause: err });
}

export async function discover(provider: SwitchboardOAuthProvider): Promise<OAuthDiscoveryState> {
  const session = provider.session;
  if (session.discoveryState?.authorizationServerUrl) return session.discoveryState;
  // A fresh process knows the PRM location only from what the login stored.
  const stored = session.resourceMetadataUrl ?? (await session.current())?.resource_metadata_url;
  const resourceMetadataUrl = stored ? new URL(stored) : undefined;
  const state = await discoverAuthorizationState(session.serverUrl, { fetchFn: fetchWithTimeout({ timeoutMs: DISCOVERY_TIMEOUT_MS }), resourceMetadataUrl });
  session.discoveryState = state;
  return state;
}
