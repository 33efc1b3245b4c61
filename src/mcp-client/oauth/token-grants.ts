// Token requests outside the browser login, as small functions anyone may reuse (the gateway will
// call them for each caller): one token request at a token endpoint with the client's
// authentication and an optional DPoP proof, token exchange (RFC 8693), the jwt-bearer grant
// (RFC 7523) and the identity assertion (ID-JAG) exchange at an enterprise IdP. The wire work
// (client authentication, DPoP proofs and nonce retry, error parsing) is the SDK's fetchToken.
import {
  createPrivateKeyJwtAuth,
  discoverAuthorizationServerMetadata,
  fetchToken,
  type AuthorizationServerMetadata,
  type DpopSession,
  type FetchLike,
  type OAuthClientProvider,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { SwitchboardError } from '../../util/index.js';

/** The grant types switchboard requests tokens with besides the authorization code: their `grant_type` values. */
export const GRANT_TYPES = {
  clientCredentials: 'client_credentials',
  jwtBearer: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
  tokenExchange: 'urn:ietf:params:oauth:grant-type:token-exchange',
} as const;

/** RFC 8693 token type URNs (and the ID-JAG's, from the identity assertion grant draft). */
export const TOKEN_TYPES = {
  accessToken: 'urn:ietf:params:oauth:token-type:access_token',
  idToken: 'urn:ietf:params:oauth:token-type:id_token',
  jwt: 'urn:ietf:params:oauth:token-type:jwt',
  idJag: 'urn:ietf:params:oauth:token-type:id-jag',
} as const;

/** How a client authenticates at a token endpoint. */
export interface ClientCredentials {
  /** The client_id there; null for none. */
  clientId: string | null;
  /** A client secret, sent as HTTP Basic or in the body, as the endpoint's metadata allows (Basic when it says nothing). */
  clientSecret?: string;
  /** private_key_jwt (RFC 7523 §2.2): a PKCS#8 PEM key and the JWS algorithm it signs with. */
  privateKey?: { pem: string; algorithm: string };
}

/** A token endpoint and what its authorization server's metadata says about it. */
export interface TokenEndpoint {
  url: string;
  /** The authorization server's issuer (the audience of a private_key_jwt assertion); default the endpoint URL. */
  issuer?: string;
  /** `token_endpoint_auth_methods_supported`, when known. */
  authMethods?: readonly string[];
}

/** One request to a token endpoint: where, as which client, for which resource and scopes. */
export interface TokenRequestOptions {
  endpoint: TokenEndpoint;
  client: ClientCredentials;
  /** RFC 8707 resource indicator. */
  resource?: string | URL;
  /** Space-separated scopes. */
  scope?: string;
  /** Sign a DPoP proof into the request (the token comes back bound to this key). */
  dpop?: DpopSession;
  fetch?: FetchLike;
  now?: () => number;
}

/** What a token endpoint issued, with the absolute expiry of the access token. */
export interface IssuedToken {
  tokens: OAuthTokens;
  /** Epoch milliseconds; null when the endpoint gave no `expires_in`. */
  expiresAt: number | null;
  /** RFC 8693 `issued_token_type`, for token exchanges. */
  issuedTokenType: string | undefined;
}

/** The endpoint of an authorization server as its metadata names it (the SDK's default when it names none). */
export function tokenEndpointOf(authorizationServerUrl: string | URL, metadata: AuthorizationServerMetadata | undefined): TokenEndpoint {
  return {
    url: metadata?.token_endpoint ?? new URL('/token', authorizationServerUrl).href,
    issuer: metadata?.issuer ?? String(authorizationServerUrl),
    ...(metadata?.token_endpoint_auth_methods_supported ? { authMethods: metadata.token_endpoint_auth_methods_supported } : {}),
  };
}

/** The token endpoint of an IdP known by its issuer (RFC 8414 / OpenID discovery). */
export async function discoverTokenEndpoint(issuer: string, options: { fetch?: FetchLike } = {}): Promise<TokenEndpoint> {
  const metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn: options.fetch });
  if (!metadata?.token_endpoint) throw new SwitchboardError('oauth_discovery', `no token endpoint found in the metadata of ${issuer}`);
  return tokenEndpointOf(issuer, metadata);
}

/** The SDK's private_key_jwt signer for `client` (iss = sub = client_id, aud = the issuer, 5 minutes). */
export function privateKeyJwtAuth(client: ClientCredentials): OAuthClientProvider['addClientAuthentication'] {
  if (!client.privateKey || !client.clientId) return undefined;
  return createPrivateKeyJwtAuth({ issuer: client.clientId, subject: client.clientId, privateKey: client.privateKey.pem, alg: client.privateKey.algorithm });
}

/** The smallest OAuthClientProvider fetchToken needs: fixed grant parameters, the client and DPoP. */
function grantProvider(params: URLSearchParams, client: ClientCredentials, dpop: DpopSession | undefined): OAuthClientProvider {
  const refuse = () => {
    throw new SwitchboardError('internal', 'a token request provider never redirects');
  };
  return {
    redirectUrl: undefined,
    clientMetadata: { redirect_uris: [] },
    clientInformation: () => (client.clientId ? { client_id: client.clientId, ...(client.clientSecret !== undefined ? { client_secret: client.clientSecret } : {}) } : undefined),
    tokens: () => undefined,
    saveTokens: () => {},
    redirectToAuthorization: refuse,
    saveCodeVerifier: () => {},
    codeVerifier: refuse,
    addClientAuthentication: privateKeyJwtAuth(client),
    ...(dpop ? { dpop: () => dpop } : {}),
    prepareTokenRequest: (scope) => {
      const out = new URLSearchParams(params);
      if (scope) out.set('scope', scope);
      return out;
    },
  };
}

/**
 * One token request with `params` (the grant) at `options.endpoint`. OAuth error answers reject
 * with the SDK's OAuthError (its `code` is the `error` the endpoint sent).
 */
export async function requestToken(params: URLSearchParams, options: TokenRequestOptions): Promise<IssuedToken> {
  const { endpoint } = options;
  let issuedTokenType: string | undefined;
  const base = options.fetch ?? fetch;
  // fetchToken keeps only the fields of a token response; RFC 8693's issued_token_type is read here.
  const fetchFn: FetchLike = async (url, init) => {
    const response = await base(url, init);
    if (response.ok) {
      const body: unknown = await response.clone().json().catch(() => undefined);
      const type = (body as { issued_token_type?: unknown } | undefined)?.issued_token_type;
      issuedTokenType = typeof type === 'string' ? type : undefined;
    }
    return response;
  };
  // Only what fetchToken reads of the metadata: where the endpoint is and which client authentication it takes.
  const metadata = {
    issuer: endpoint.issuer ?? endpoint.url,
    token_endpoint: endpoint.url,
    ...(endpoint.authMethods ? { token_endpoint_auth_methods_supported: [...endpoint.authMethods] } : {}),
  } as AuthorizationServerMetadata;
  const tokens = await fetchToken(grantProvider(params, options.client, options.dpop), endpoint.issuer ?? endpoint.url, {
    metadata,
    resource: options.resource,
    scope: options.scope,
    fetchFn,
  });
  const now = (options.now ?? Date.now)();
  return { tokens, expiresAt: typeof tokens.expires_in === 'number' ? now + tokens.expires_in * 1000 : null, issuedTokenType };
}

/** RFC 7523 §2.1 grant parameters: present `assertion` (a JWT) for an access token. */
export function jwtBearerParams(assertion: string): URLSearchParams {
  return new URLSearchParams({ grant_type: GRANT_TYPES.jwtBearer, assertion });
}

/** The jwt-bearer grant (RFC 7523): a workload identity token or an ID-JAG for an access token. */
export function jwtBearerGrant(options: TokenRequestOptions & { assertion: string }): Promise<IssuedToken> {
  return requestToken(jwtBearerParams(options.assertion), options);
}

/** A token exchange request (RFC 8693): the token to trade, its type, and what to get for it. */
export interface TokenExchangeOptions extends TokenRequestOptions {
  /** The token being traded (the subject's). */
  subjectToken: string;
  /** Its type: one of TOKEN_TYPES. */
  subjectTokenType: string;
  /** The type of token wanted back; default the server's choice. */
  requestedTokenType?: string;
  /** The logical name of the target (an authorization server's issuer, an API's name). */
  audience?: string;
  /** The party acting for the subject (delegation), when there is one. */
  actorToken?: string;
  actorTokenType?: string;
}

/** Token exchange (RFC 8693): trade the subject's token for one aimed at `audience` / `resource`. */
export function exchangeToken(options: TokenExchangeOptions): Promise<IssuedToken> {
  const params = new URLSearchParams({ grant_type: GRANT_TYPES.tokenExchange, subject_token: options.subjectToken, subject_token_type: options.subjectTokenType });
  if (options.requestedTokenType) params.set('requested_token_type', options.requestedTokenType);
  if (options.audience) params.set('audience', options.audience);
  if (options.actorToken) {
    params.set('actor_token', options.actorToken);
    params.set('actor_token_type', options.actorTokenType ?? TOKEN_TYPES.accessToken);
  }
  return requestToken(params, options);
}

/**
 * The first leg of enterprise-managed authorization: exchange the subject's identity token at the
 * IdP for an identity assertion (ID-JAG) for the MCP server's authorization server (`audience`,
 * its issuer) and the MCP server (`resource`). The ID-JAG is then presented with jwtBearerGrant.
 */
export async function requestIdentityAssertion(
  options: Omit<TokenExchangeOptions, 'requestedTokenType' | 'subjectTokenType' | 'dpop'> & { subjectTokenType?: string; audience: string; resource: string | URL },
): Promise<IssuedToken> {
  const issued = await exchangeToken({ ...options, subjectTokenType: options.subjectTokenType ?? TOKEN_TYPES.idToken, requestedTokenType: TOKEN_TYPES.idJag });
  if (issued.issuedTokenType !== undefined && issued.issuedTokenType !== TOKEN_TYPES.idJag) {
    throw new SwitchboardError('oauth_token_exchange', `the identity provider issued a ${issued.issuedTokenType} instead of an identity assertion (${TOKEN_TYPES.idJag})`);
  }
  return issued;
}
