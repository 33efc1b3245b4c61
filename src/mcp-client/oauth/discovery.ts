// OAuth discovery through the SDK (RFC 9728 protected-resource metadata, RFC 8414 / OpenID
// metadata in all URL variants, the 2025-03-26 "server origin is the authorization server"
// fallback), with per-request timeouts and Codex's scopes_supported normalisation on top.
import {
  IssuerMismatchError,
  discoverOAuthProtectedResourceMetadata,
  discoverOAuthServerInfo,
  type AuthorizationServerMetadata,
  type FetchLike,
  type OAuthDiscoveryState,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/client';
import { anySignal, errorMessage } from '../../util/index.js';
import { isFetchFailure } from '../classify-error.js';
import { McpClientError } from '../errors.js';

export const DISCOVERY_TIMEOUT_MS = 5_000;

export interface OAuthDiscovery {
  authorizationServerUrl: string;
  metadata: AuthorizationServerMetadata;
  resourceMetadata: OAuthProtectedResourceMetadata | undefined;
  /** Normalised (trimmed, de-duplicated, empties dropped); undefined when none are advertised. */
  scopesSupported: string[] | undefined;
}

export interface DiscoveryOptions {
  fetch?: FetchLike;
  signal?: AbortSignal;
  /** Per request (Codex: 5 s). */
  timeoutMs?: number;
  /** The `resource_metadata` URL from a WWW-Authenticate challenge, when one was seen. */
  resourceMetadataUrl?: URL;
}

/** A fetch that gives each request its own deadline and honours the caller's signal. */
export function fetchWithTimeout(options: { fetch?: FetchLike; signal?: AbortSignal; timeoutMs: number }): FetchLike {
  const base = options.fetch ?? fetch;
  return (url, init) => base(url, { ...init, signal: anySignal(init?.signal ?? undefined, options.signal, AbortSignal.timeout(options.timeoutMs)) });
}

/**
 * A discovery request that got no HTTP answer, as the client's typed error: `network` (refused,
 * reset, DNS) or `timeout`, naming the server; anything else is returned unchanged.
 */
export function discoveryFailure(serverUrl: string, err: unknown): unknown {
  if (isFetchFailure(err)) {
    const cause = (err as { cause?: unknown }).cause;
    return new McpClientError('network', `cannot reach ${serverUrl} for OAuth discovery: ${errorMessage(cause)}`, { cause: err });
  }
  if (err instanceof DOMException && err.name === 'TimeoutError') {
    return new McpClientError('timeout', `OAuth discovery for ${serverUrl} got no answer in time`, { cause: err });
  }
  return err;
}

export function normalizeScopes(scopes: readonly string[] | undefined): string[] | undefined {
  if (!scopes) return undefined;
  const out = [...new Set(scopes.map((s) => s.trim()).filter((s) => s !== ''))];
  return out.length > 0 ? out : undefined;
}

/**
 * Discovery as auth() does it, with one tolerance the SDK lacks: a 2025-03-26 server (no
 * protected-resource metadata, so the MCP server's origin is the authorization server) may serve
 * metadata whose `issuer` is not its origin. That spec had no issuer echo, so for that case only
 * the metadata is accepted without the RFC 8414 §3.3 check; with PRM present the check stands. A
 * server that cannot be reached rejects with McpClientError `network` (or `timeout`).
 */
export async function discoverAuthorizationState(serverUrl: string, options: { fetchFn?: FetchLike; resourceMetadataUrl?: URL }): Promise<OAuthDiscoveryState> {
  const resourceMetadataUrl = options.resourceMetadataUrl;
  const toState = (info: Awaited<ReturnType<typeof discoverOAuthServerInfo>>): OAuthDiscoveryState => ({
    authorizationServerUrl: String(info.authorizationServerUrl),
    resourceMetadataUrl: resourceMetadataUrl?.href,
    resourceMetadata: info.resourceMetadata,
    authorizationServerMetadata: info.authorizationServerMetadata,
  });
  try {
    return toState(await discoverOAuthServerInfo(serverUrl, { fetchFn: options.fetchFn, resourceMetadataUrl }));
  } catch (err) {
    if (!(err instanceof IssuerMismatchError) || err.kind !== 'metadata') throw discoveryFailure(serverUrl, err);
    const hasPrm = await discoverOAuthProtectedResourceMetadata(serverUrl, { resourceMetadataUrl }, options.fetchFn).then(
      () => true,
      () => false,
    );
    if (hasPrm) throw err;
    return toState(await discoverOAuthServerInfo(serverUrl, { fetchFn: options.fetchFn, resourceMetadataUrl, skipIssuerMetadataValidation: true }));
  }
}

/**
 * Discover the authorization server for an MCP server URL. Resolves undefined when no usable
 * metadata exists (no document, or one without authorization and token endpoints); a server that
 * cannot be reached rejects with McpClientError `network` (or `timeout`).
 */
export async function discoverOAuth(serverUrl: string, options: DiscoveryOptions = {}): Promise<OAuthDiscovery | undefined> {
  const fetchFn = fetchWithTimeout({ fetch: options.fetch, signal: options.signal, timeoutMs: options.timeoutMs ?? DISCOVERY_TIMEOUT_MS });
  const info = await discoverOAuthServerInfo(serverUrl, { fetchFn, resourceMetadataUrl: options.resourceMetadataUrl }).catch((err: unknown) => {
    throw discoveryFailure(serverUrl, err);
  });
  const metadata = info.authorizationServerMetadata;
  if (!metadata?.authorization_endpoint || !metadata.token_endpoint) return undefined;
  return {
    authorizationServerUrl: String(info.authorizationServerUrl),
    metadata,
    resourceMetadata: info.resourceMetadata,
    scopesSupported: normalizeScopes(info.resourceMetadata?.scopes_supported) ?? normalizeScopes(metadata.scopes_supported),
  };
}
