// `switchboard mcp login` / `logout` as library functions: the loopback callback, the SDK's auth()
// for discovery, registration, PKCE and the code exchange, Codex's scope rules and texts; a
// credential that needs no browser just gets a token. An unreachable server, or one that does not
// use OAuth, is said so plainly.
import {
  LATEST_PROTOCOL_VERSION,
  OAuthError,
  auth,
  extractWWWAuthenticateParams,
  type FetchLike,
} from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../../config/index.js';
import { SwitchboardError, anySignal } from '../../util/index.js';
import { isFetchFailure } from '../classify-error.js';
import { DEFAULT_CLIENT_INFO } from '../defaults.js';
import { McpClientError } from '../errors.js';
import { credentialKindLabel, credentialKindOf, credentialStateLabel, describeCredential } from './auth-status.js';
import { startCallbackServer } from './callback-server.js';
import { discoverAuthorizationState, discoveryFailure, fetchWithTimeout } from './discovery.js';
import { OAuthLoginError } from './errors.js';
import type { OAuthRuntime } from './oauth-runtime.js';
import type { SwitchboardOAuthProvider } from './provider.js';
import { storeNewMachineToken } from './refresh.js';
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
  noBrowser: (name: string, kind: string) => `MCP server '${name}' uses ${kind}: no browser login is needed.`,
  obtained: (name: string, validity: string) => `Obtained a token for MCP server '${name}' (${validity}).`,
  unreachable: (name: string, url: string, reason: string) =>
    `Cannot reach MCP server '${name}' at ${url}: ${reason}. Check that the server is running and that its url in config.toml is right.`,
  noOAuth: (name: string, status: number) =>
    `MCP server '${name}' does not use OAuth: it answered an unauthenticated request with HTTP ${status} and publishes no OAuth metadata. ` +
    `It needs no login; if it wants a token, set bearer_token_env_var in its [mcp_servers.${name}] table.`,
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

/** What an unauthenticated initialize said: its status and challenge, or that nothing answered. */
interface Probe {
  status?: number;
  resourceMetadataUrl?: URL;
  scope?: string;
  /** The request got no HTTP answer (refused, reset, DNS, timeout). */
  unreachable?: McpClientError;
}

/** An unauthenticated request to read the server's challenge (resource_metadata, scope). */
async function probeChallenge(url: string, fetchFn: FetchLike): Promise<Probe> {
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
    if (response.status !== 401 && response.status !== 403) return { status: response.status };
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return { status: response.status, resourceMetadataUrl, scope };
  } catch (err) {
    const failure = discoveryFailure(url, err);
    return failure instanceof McpClientError ? { unreachable: failure } : {};
  }
}

function unreachable(server: McpServerConfig, url: string, err: McpClientError): McpClientError {
  const cause = (err.cause as { cause?: unknown } | undefined)?.cause;
  const reason = isFetchFailure(err.cause) && cause instanceof Error ? cause.message : 'no answer in time';
  return new McpClientError(err.code, LOGIN_TEXTS.unreachable(server.name, url, reason), { cause: err });
}

/** How a login went: through the browser, or a token fetched for a credential that needs none (already said). */
export type OAuthLoginOutcome = 'browser' | 'machine';

/** Run the browser login for one HTTP server and store the tokens (or just get a token, for a credential that needs no login). */
export async function performOAuthLogin(options: OAuthLoginOptions): Promise<OAuthLoginOutcome> {
  const { server, runtime } = options;
  const url = httpUrl(server, LOGIN_TEXTS.onlyHttp);
  const fetchFn = fetchWithTimeout({ fetch: options.fetch, signal: options.signal, timeoutMs: 30_000 });
  const challenge = await probeChallenge(url, fetchWithTimeout({ fetch: options.fetch, signal: options.signal, timeoutMs: 5_000 }));
  if (challenge.unreachable) throw unreachable(server, url, challenge.unreachable);
  const choice = resolveOAuthScopes({ flag: options.scopes, configured: server.scopes, challenge: challenge.scope });

  const machine = runtime.providerFor(server, { kind: 'none' });
  if (machine.isMachineGrant) {
    options.print(LOGIN_TEXTS.noBrowser(server.name, credentialKindLabel({ kind: credentialKindOf(server), dpop: machine.dpop !== undefined })));
    if (challenge.resourceMetadataUrl) machine.session.resourceMetadataUrl = challenge.resourceMetadataUrl.href;
    await storeNewMachineToken(machine, choice.scopes?.join(' '));
    const summary = await describeCredential(server, { store: runtime.store, env: runtime.env });
    options.print(LOGIN_TEXTS.obtained(server.name, credentialStateLabel(summary)));
    return 'machine';
  }

  const session = runtime.session(server.name, url);
  session.discoveryState ??= await discoverAuthorizationState(url, { fetchFn, resourceMetadataUrl: challenge.resourceMetadataUrl });
  // No challenge and no metadata: this server does not do OAuth (a 2025-03-26 server without metadata still answers 401).
  const state = session.discoveryState;
  if (!state.authorizationServerMetadata && !state.resourceMetadata && challenge.status !== undefined && challenge.status !== 401 && challenge.status !== 403) {
    throw new OAuthLoginError('oauth_unsupported', LOGIN_TEXTS.noOAuth(server.name, challenge.status));
  }

  const callback = await startCallbackServer({ port: options.callbackPort, callbackUrl: options.callbackUrl });
  try {
    try {
      await authorizeOnce(options, url, callback, choice, challenge.resourceMetadataUrl, fetchFn);
    } catch (err) {
      const providerError = (err instanceof OAuthLoginError && err.code === 'oauth_provider_error') || (err instanceof OAuthError && err.code === 'invalid_scope');
      const discovered = session.discoveryState?.resourceMetadata?.scopes_supported ?? [];
      const requestedAny = (choice.scopes?.length ?? 0) > 0 || discovered.length > 0;
      if (!shouldRetryWithoutScopes(choice.source, requestedAny, providerError)) throw err;
      options.print(LOGIN_TEXTS.retryWithoutScopes);
      await authorizeOnce(options, url, callback, { scopes: [], source: choice.source }, challenge.resourceMetadataUrl, fetchFn);
    }
  } finally {
    await callback.close();
  }
  return 'browser';
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
