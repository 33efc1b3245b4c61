// OAuth discovery through the SDK (RFC 9728 protected-resource metadata, RFC 8414 / OpenID
// metadata in all URL variants, the 2025-03-26 "server origin is the authorization server"
// fallback), with per-request timeouts and Codex's scopes_supported normalisation on top.
import {
  discoverOAuthServerInfo,
  type AuthorizationServerMetadata,
  type FetchLike,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/client';
import { anySignal } from '../../util/index.js';

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

export function normalizeScopes(scopes: readonly string[] | undefined): string[] | undefined {
  if (!scopes) return undefined;
  const out = [...new Set(scopes.map((s) => s.trim()).filter((s) => s !== ''))];
  return out.length > 0 ? out : undefined;
}

/**
 * Discover the authorization server for an MCP server URL. Resolves undefined when no usable
 * metadata exists (no document, or one without authorization and token endpoints); network
 * failures reject.
 */
export async function discoverOAuth(serverUrl: string, options: DiscoveryOptions = {}): Promise<OAuthDiscovery | undefined> {
  const fetchFn = fetchWithTimeout({ fetch: options.fetch, signal: options.signal, timeoutMs: options.timeoutMs ?? DISCOVERY_TIMEOUT_MS });
  const info = await discoverOAuthServerInfo(serverUrl, { fetchFn, resourceMetadataUrl: options.resourceMetadataUrl });
  const metadata = info.authorizationServerMetadata;
  if (!metadata?.authorization_endpoint || !metadata.token_endpoint) return undefined;
  return {
    authorizationServerUrl: String(info.authorizationServerUrl),
    metadata,
    resourceMetadata: info.resourceMetadata,
    scopesSupported: normalizeScopes(info.resourceMetadata?.scopes_supported) ?? normalizeScopes(metadata.scopes_supported),
  };
}
