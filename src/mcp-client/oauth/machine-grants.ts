// The token request of each grant that needs no browser, built when the SDK asks for one
// (prepareTokenRequest): client_credentials; jwt-bearer with the workload identity token read afresh
// from its file (a rotation is picked up; an expired token is refused before it is sent); and the
// identity assertion grant, whose ID-JAG comes from a token exchange at the enterprise IdP first.
import { OAuthError, type FetchLike } from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import { SwitchboardError, errorMessage } from '../../util/index.js';
import type { IdentityProvider, OAuthGrant, TokenSource } from './credential-config.js';
import { OAuthCredentialError } from './errors.js';
import { readTokenFile } from './secret-source.js';
import { GRANT_TYPES, discoverTokenEndpoint, jwtBearerParams, requestIdentityAssertion, type TokenEndpoint } from './token-grants.js';

/** What a grant needs to know about the server it asks for. */
export interface GrantContext {
  serverName: string;
  /** The MCP server's authorization server (its issuer): the audience of an ID-JAG. */
  audience: string;
  /** The RFC 8707 resource: the MCP server an ID-JAG is for. */
  resource: string | undefined;
  now: () => number;
  fetch?: FetchLike;
}

/** Why a token request was refused, as the server said it (`invalid_grant: JWT expired`). */
export function oauthReason(err: unknown): string {
  return err instanceof OAuthError ? `${err.code}: ${err.message}` : errorMessage(err);
}

/** The workload identity token, read now; a token past its `exp` is not sent (the platform has not rotated it). */
async function workloadToken(serverName: string, file: string, now: number): Promise<string> {
  const token = await readTokenFile(serverName, 'oauth.assertion_file', file);
  let exp: number | undefined;
  try {
    exp = decodeJwt(token).exp;
  } catch {
    // Not a JWT we can read: the authorization server decides.
  }
  if (exp !== undefined && exp * 1000 <= now) {
    throw new OAuthCredentialError(serverName, `the workload identity token in ${file} expired at ${new Date(exp * 1000).toISOString()}; the platform that writes it has not rotated it`);
  }
  return token;
}

async function subjectToken(serverName: string, source: TokenSource): Promise<string> {
  if ('file' in source) return readTokenFile(serverName, 'oauth.idp.subject_token_file', source.file);
  return 'read' in source ? source.read() : source.value;
}

/** The IdP's token endpoint: configured, or discovered from its issuer (once per provider). */
export class IdentityProviderEndpoint {
  private endpoint: Promise<TokenEndpoint> | undefined;

  constructor(private readonly idp: IdentityProvider) {}

  get(fetchFn?: FetchLike): Promise<TokenEndpoint> {
    if (this.idp.tokenEndpoint) return Promise.resolve({ url: this.idp.tokenEndpoint, ...(this.idp.issuer ? { issuer: this.idp.issuer } : {}) });
    this.endpoint ??= discoverTokenEndpoint(this.idp.issuer!, { fetch: fetchFn }).catch((err: unknown) => {
      this.endpoint = undefined;
      throw err;
    });
    return this.endpoint;
  }
}

/** Exchange the subject's identity token at the IdP for an ID-JAG aimed at this server. */
async function identityAssertion(grant: Extract<OAuthGrant, { kind: 'identity_assertion' }>, endpoint: IdentityProviderEndpoint, scope: string | undefined, ctx: GrantContext): Promise<string> {
  if (!ctx.resource) {
    throw new OAuthCredentialError(ctx.serverName, 'an identity assertion names the MCP server it is for, but the server publishes no protected-resource metadata; set oauth_resource');
  }
  try {
    const issued = await requestIdentityAssertion({
      endpoint: await endpoint.get(ctx.fetch),
      client: grant.idp.client,
      subjectToken: await subjectToken(ctx.serverName, grant.idp.subjectToken),
      subjectTokenType: grant.idp.subjectTokenType,
      audience: ctx.audience,
      resource: ctx.resource,
      scope,
      fetch: ctx.fetch,
      now: ctx.now,
    });
    return issued.tokens.access_token;
  } catch (err) {
    if (err instanceof OAuthCredentialError || (err instanceof SwitchboardError && err.code === 'config')) throw err;
    throw new OAuthCredentialError(ctx.serverName, `the identity provider did not issue an identity assertion (${oauthReason(err)}); check oauth.idp and the subject token`, {
      cause: err,
      ...(err instanceof OAuthError ? { oauthError: err.code } : {}),
    });
  }
}

/** The parameters of a token request for a grant that needs no browser; undefined for authorization_code. */
export async function machineGrantParams(grant: OAuthGrant, scope: string | undefined, ctx: GrantContext, idpEndpoint?: IdentityProviderEndpoint): Promise<URLSearchParams | undefined> {
  let params: URLSearchParams;
  switch (grant.kind) {
    case 'authorization_code':
      return undefined;
    case 'client_credentials':
      params = new URLSearchParams({ grant_type: GRANT_TYPES.clientCredentials });
      break;
    case 'jwt_bearer':
      params = jwtBearerParams(await workloadToken(ctx.serverName, grant.assertionFile, ctx.now()));
      break;
    case 'identity_assertion':
      params = jwtBearerParams(await identityAssertion(grant, idpEndpoint ?? new IdentityProviderEndpoint(grant.idp), scope, ctx));
      break;
  }
  if (scope) params.set('scope', scope);
  return params;
}

/**
 * Keeps the SDK's auth() from presenting a refused credential twice: when a token request is
 * refused it invalidates the tokens and tries again at once, with the same credential. The
 * transport notes the refusal it saw; that retry then fails with it instead of asking again.
 */
export class RefusedGrant {
  private seen: OAuthError | undefined;
  private armed: OAuthError | undefined;

  /** The transport saw the token endpoint refuse a request. */
  note(err: OAuthError): void {
    this.seen = err;
  }

  /** auth() invalidated the tokens after that refusal: its next token request would present the same credential. */
  arm(): void {
    this.armed = this.seen;
    this.seen = undefined;
  }

  /** The refusal to report instead of asking again (once). */
  take(): OAuthError | undefined {
    const refused = this.armed;
    this.armed = undefined;
    return refused;
  }
}

/** What a refused machine grant means, in words that say what to check (no login would help). */
export function refusedGrantText(grant: OAuthGrant, err: unknown): string {
  const reason = oauthReason(err);
  switch (grant.kind) {
    case 'authorization_code':
    case 'client_credentials':
      return `the authorization server refused its client credentials (${reason}); check oauth.client_id and the client secret or private key`;
    case 'jwt_bearer':
      return `the authorization server refused the workload identity token from ${grant.assertionFile} (${reason})`;
    case 'identity_assertion':
      return `the authorization server refused the identity assertion from the IdP (${reason}); check oauth.client_id and its client secret`;
  }
}
