// `switchboard mcp login` / `logout` as library functions: the loopback callback, the SDK's auth()
// for discovery, registration, PKCE and the code exchange, Codex's scope rules and texts.
import {
  LATEST_PROTOCOL_VERSION,
  OAuthError,
  auth,
  extractWWWAuthenticateParams,
  type FetchLike,
} from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../../config/index.js';
import { SwitchboardError, anySignal } from '../../util/index.js';
import { DEFAULT_CLIENT_INFO } from '../defaults.js';
import { startCallbackServer } from './callback-server.js';
import { discoverAuthorizationState, fetchWithTimeout } from './discovery.js';
import { OAuthLoginError } from './errors.js';
import type { OAuthRuntime } from './oauth-runtime.js';
import type { SwitchboardOAuthProvider } from './provider.js';
import { resolveOAuthScopes, shouldRetryWithoutScopes, type ScopeChoice } from './scopes.js';

export const DEFAULT_OAUTH_LOGIN_TIMEOUT_MS = 300_000;

export const LOGIN_TEXTS = {
  onlyHttp: 'OAuth login is only supported for streamable HTTP servers.',
  logoutOnlyHttp: 'OAuth logout is only supported for streamable_http transports.',
  browserFailed: '(Browser launch failed; please copy the URL above manually.)',
  retryWithoutScopes: 'OAuth provider rejected discovered scopes. Retrying without scopes…',
  timeout: 'timed out waiting for OAuth callback',
  authorize: (name: string, url: string) => `Authorize \`${name}\` by opening this URL in your browser:\n${url}\n`,
  success: (name: string) => `Successfully logged in to MCP server '${name}'.`,
  removed: (name: string) => `Removed OAuth credentials for '${name}'.`,
  nothingStored: (name: string) => `No OAuth credentials stored for '${name}'.`,
} as const;

export interface OAuthLoginOptions {
  runtime: OAuthRuntime;
  server: McpServerConfig;
  /** `--scopes a,b`. */
  scopes?: string[];
  callbackPort?: number | null;
  callbackUrl?: string | null;
  /** Print a line for the user (println: the newline is added by the printer). */
  print: (text: string) => void;
  /** Try to open a browser; false when it could not be launched. */
  openBrowser: (url: string) => Promise<boolean>;
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
}

function httpUrl(server: McpServerConfig, message: string): string {
  if (server.transport.type === 'stdio') throw new SwitchboardError('oauth_unsupported', message);
  return server.transport.url;
}

/** An unauthenticated request to read the server's challenge (resource_metadata, scope). */
async function probeChallenge(url: string, fetchFn: FetchLike): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  try {
    const response = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: DEFAULT_CLIENT_INFO.name, version: DEFAULT_CLIENT_INFO.version } },
      }),
    });
    await response.body?.cancel().catch(() => {});
    const session = response.headers.get('mcp-session-id');
    if (session) await fetchFn(url, { method: 'DELETE', headers: { 'mcp-session-id': session } }).catch(() => {});
    if (response.status !== 401 && response.status !== 403) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return { resourceMetadataUrl, scope };
  } catch {
    return {};
  }
}

/** Run the browser login for one HTTP server and store the tokens. */
export async function performOAuthLogin(options: OAuthLoginOptions): Promise<void> {
  const { server, runtime } = options;
  const url = httpUrl(server, LOGIN_TEXTS.onlyHttp);
  const fetchFn = fetchWithTimeout({ fetch: options.fetch, signal: options.signal, timeoutMs: 30_000 });
  const challenge = await probeChallenge(url, fetchWithTimeout({ fetch: options.fetch, signal: options.signal, timeoutMs: 5_000 }));
  const choice = resolveOAuthScopes({ flag: options.scopes, configured: server.scopes, challenge: challenge.scope });

  if (runtime.grantFor(server).kind === 'client_credentials') {
    const provider = runtime.providerFor(server, { kind: 'none' });
    const result = await auth(provider, { serverUrl: url, scope: choice.scopes?.join(' '), resourceMetadataUrl: challenge.resourceMetadataUrl, fetchFn });
    if (result !== 'AUTHORIZED') throw new OAuthLoginError('oauth_login_failed', 'the client_credentials grant did not return a token');
    return;
  }

  const callback = await startCallbackServer({ port: options.callbackPort, callbackUrl: options.callbackUrl });
  try {
    try {
      await authorizeOnce(options, url, callback, choice, challenge.resourceMetadataUrl, fetchFn);
    } catch (err) {
      const providerError = (err instanceof OAuthLoginError && err.code === 'oauth_provider_error') || (err instanceof OAuthError && err.code === 'invalid_scope');
      const session = runtime.session(server.name, url);
      const discovered = session.discoveryState?.resourceMetadata?.scopes_supported ?? [];
      const requestedAny = (choice.scopes?.length ?? 0) > 0 || discovered.length > 0;
      if (!shouldRetryWithoutScopes(choice.source, requestedAny, providerError)) throw err;
      options.print(LOGIN_TEXTS.retryWithoutScopes);
      await authorizeOnce(options, url, callback, { scopes: [], source: choice.source }, challenge.resourceMetadataUrl, fetchFn);
    }
  } finally {
    await callback.close();
  }
}

async function authorizeOnce(
  options: OAuthLoginOptions,
  url: string,
  callback: Awaited<ReturnType<typeof startCallbackServer>>,
  choice: ScopeChoice,
  resourceMetadataUrl: URL | undefined,
  fetchFn: FetchLike,
): Promise<void> {
  const { server, runtime } = options;
  const provider: SwitchboardOAuthProvider = runtime.providerFor(server, {
    kind: 'interactive',
    redirectUrl: callback.redirectUri,
    onAuthorizationUrl: async (authorizationUrl) => {
      options.print(LOGIN_TEXTS.authorize(server.name, authorizationUrl.href));
      if (!(await options.openBrowser(authorizationUrl.href))) options.print(LOGIN_TEXTS.browserFailed);
    },
  });
  const scope = choice.scopes && choice.scopes.length > 0 ? choice.scopes.join(' ') : undefined;
  const session = provider.session;
  session.discoveryState ??= await discoverAuthorizationState(url, { fetchFn, resourceMetadataUrl });
  if (choice.scopes && choice.scopes.length === 0) hideDiscoveredScopes(provider);

  const first = await auth(provider, { serverUrl: url, scope, resourceMetadataUrl, fetchFn });
  if (first === 'AUTHORIZED') return;
  const deadline = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_OAUTH_LOGIN_TIMEOUT_MS);
  let result;
  try {
    result = await callback.wait(anySignal(options.signal, deadline));
  } catch (err) {
    if (deadline.aborted && !options.signal?.aborted) throw new OAuthLoginError('oauth_callback_timeout', LOGIN_TEXTS.timeout, { cause: err });
    throw err;
  }
  if (result.state !== provider.authorizationState) {
    throw new OAuthLoginError('oauth_login_failed', 'OAuth callback state did not match; the login was not completed');
  }
  const exchanged = await auth(provider, { serverUrl: url, authorizationCode: result.code, iss: result.iss ?? undefined, scope, resourceMetadataUrl, fetchFn });
  if (exchanged !== 'AUTHORIZED') throw new OAuthLoginError('oauth_login_failed', 'the authorization code exchange did not complete');
}

/**
 * Make auth() send no scope at all: it falls back to the protected resource's scopes_supported,
 * so hide that list in the cached discovery (an explicit `scopes = []`, or the retry without scopes).
 */
function hideDiscoveredScopes(provider: SwitchboardOAuthProvider): void {
  const state = provider.session.discoveryState;
  if (state?.resourceMetadata) provider.session.discoveryState = { ...state, resourceMetadata: { ...state.resourceMetadata, scopes_supported: undefined } };
}

/** Remove stored credentials; resolves the text to print. */
export async function performOAuthLogout(runtime: OAuthRuntime, server: McpServerConfig): Promise<string> {
  const url = httpUrl(server, LOGIN_TEXTS.logoutOnlyHttp);
  const session = runtime.session(server.name, url);
  // Under the refresh gate, so a refresh running in another process cannot write the tokens back.
  const removed = await session.withRefreshGate(() => session.deleteAll());
  return removed ? LOGIN_TEXTS.removed(server.name) : LOGIN_TEXTS.nothingStored(server.name);
}
