// One token request for a stored login: the refresh_token grant (keeping the old refresh token
// when the server sends none) or a new client_credentials token; failures become typed errors
// that tell a revoked login (auth_required) from a transient failure (oauth_refresh_failed).
import {
  OAuthError,
  OAuthErrorCode,
  fetchToken,
  refreshAuthorization,
  selectResourceURL,
  type OAuthDiscoveryState,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { errorMessage } from '../../util/index.js';
import type { StoredOAuthCredentials } from './credentials.js';
import { DISCOVERY_TIMEOUT_MS, discoverAuthorizationState, fetchWithTimeout } from './discovery.js';
import { OAuthAuthRequiredError, OAuthRefreshFailedError } from './errors.js';
import type { SwitchboardOAuthProvider } from './provider.js';

const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

/** OAuth error codes that mean the stored login is dead and only a new login helps. */
const LOGIN_INVALID = new Set<string>([OAuthErrorCode.InvalidGrant, OAuthErrorCode.InvalidClient, OAuthErrorCode.UnauthorizedClient]);

export async function refreshCredentials(provider: SwitchboardOAuthProvider, base: StoredOAuthCredentials | undefined): Promise<StoredOAuthTokens> {
  const session = provider.session;
  const name = session.serverName;
  const fetchFn = fetchWithTimeout({ fetch: undefined, timeoutMs: TOKEN_REQUEST_TIMEOUT_MS });
  try {
    const discovery = await discover(provider);
    const authorizationServerUrl = discovery.authorizationServerUrl;
    const metadata = discovery.authorizationServerMetadata;
    const issuer = metadata?.issuer ?? String(authorizationServerUrl);
    const selected = await selectResourceURL(session.serverUrl, provider, discovery.resourceMetadata);
    // Same choice as the SDK's auth(): the metadata's resource string verbatim (SDK fix #1968).
    const resource = selected && discovery.resourceMetadata && !provider.validateResourceURL ? discovery.resourceMetadata.resource : selected;
    if (provider.grant.kind === 'client_credentials') {
      const tokens = await fetchToken(provider, authorizationServerUrl, { metadata, resource, fetchFn });
      return { ...tokens, issuer };
    }
    const refreshToken = base?.tokens?.refresh_token;
    if (!refreshToken) throw new OAuthAuthRequiredError(name);
    const clientInformation = await provider.clientInformation({ issuer });
    if (!clientInformation) throw new OAuthAuthRequiredError(name);
    const tokens = await refreshAuthorization(authorizationServerUrl, {
      metadata,
      clientInformation,
      refreshToken,
      resource,
      addClientAuthentication: provider.addClientAuthentication,
      fetchFn,
    });
    session.logger.info('refreshed OAuth tokens', { server: name });
    return { ...tokens, issuer };
  } catch (err) {
    if (err instanceof OAuthAuthRequiredError || err instanceof OAuthRefreshFailedError) throw err;
    if (err instanceof OAuthError && LOGIN_INVALID.has(err.code)) {
      session.logger.warn('OAuth refresh rejected; the login is no longer valid', { server: name, error: err.code });
      if (provider.grant.kind === 'authorization_code') await session.dropTokens();
      throw new OAuthAuthRequiredError(name, { cause: err });
    }
    session.logger.warn('OAuth token request failed', { server: name, error: errorMessage(err) });
    const detail = err instanceof OAuthError ? `${err.code}: ${err.message}` : errorMessage(err);
    throw new OAuthRefreshFailedError(name, detail, { cause: err });
  }
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
