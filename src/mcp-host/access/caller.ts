// Who sent a request to an HTTP MCP server: the caller a validated access token (or the static
// token) stands for, as the host hands it to the product on each request (`ctx.http.authInfo`).
import type { AuthInfo } from '@modelcontextprotocol/server';
import { Secret } from '../../util/index.js';

export interface Caller {
  /**
   * Stable identity across tokens: `<issuer>#<subject>` (a subject starting `client:` or `sub:` is
   * written `sub:<subject>`), `<issuer>#client:<client id>` for a token without a subject, or
   * `static` for the static token. No two callers share one.
   */
  key: string;
  kind: 'token' | 'static';
  subject: string | null;
  clientId: string | null;
  scopes: readonly string[];
  /** The token's claims (empty for the static token). */
  claims: Readonly<Record<string, unknown>>;
  /**
   * The validated access token itself, for one purpose only: an upstream that acts as this caller
   * exchanges it (RFC 8693) for a token of its own. Not enumerable and never printable (a Secret),
   * so no copy, log line, audit record or span of the caller carries it.
   */
  readonly inboundToken?: Secret;
}

/** The holder of `--token-file` / $SWITCHBOARD_MCP_TOKEN: the operator, whom no rule restricts. */
export const STATIC_CALLER: Caller = Object.freeze({ key: 'static', kind: 'static', subject: null, clientId: null, scopes: [], claims: {} });

const CALLER_KEY = 'switchboard/caller';

/**
 * Whom a product's upstream requests are made for (an upstream that acts as each caller): a token
 * caller's key, subject and validated token; undefined for the operator (stdio, the static token).
 */
export function upstreamCaller(caller: Caller | undefined): { readonly key: string; readonly subject: string | null; readonly token?: Secret } | undefined {
  if (!caller || caller.kind !== 'token') return undefined;
  return { key: caller.key, subject: caller.subject, ...(caller.inboundToken ? { token: caller.inboundToken } : {}) };
}

/** The AuthInfo a request carries for `caller` (the token itself stays out: nothing forwards it). */
export function authInfoFor(caller: Caller, expiresAt: number | undefined): AuthInfo {
  return { token: '', clientId: caller.clientId ?? '', scopes: [...caller.scopes], ...(expiresAt !== undefined ? { expiresAt } : {}), extra: { [CALLER_KEY]: caller } };
}

/** The caller of a request, from its `ctx.http?.authInfo`; undefined on stdio or without auth. */
export function callerOf(authInfo: AuthInfo | undefined): Caller | undefined {
  const caller = authInfo?.extra?.[CALLER_KEY];
  return typeof caller === 'object' && caller !== null ? (caller as Caller) : undefined;
}

/** The caller a validated JWT stands for: subject, client id and scopes from the usual claims; `token`, the JWT itself. */
export function callerFromClaims(issuer: string, claims: Record<string, unknown>, token?: string): Caller {
  const subject = typeof claims.sub === 'string' ? claims.sub : null;
  // client_id (RFC 9068), azp (OIDC, Keycloak, Auth0), appid (Entra ID v1), cid (Okta).
  const clientId = [claims.client_id, claims.azp, claims.appid, claims.cid].find((v): v is string => typeof v === 'string') ?? null;
  const caller: Caller = { key: `${issuer}#${keyPart(subject, clientId)}`, kind: 'token' as const, subject, clientId, scopes: scopesOf(claims), claims: Object.freeze({ ...claims }) };
  if (token !== undefined) Object.defineProperty(caller, 'inboundToken', { value: new Secret(token), enumerable: false });
  return Object.freeze(caller);
}

/** The part after the issuer: a subject that could read as a client (or as an escaped subject) is escaped. */
function keyPart(subject: string | null, clientId: string | null): string {
  if (subject === null) return `client:${clientId ?? ''}`;
  return subject.startsWith('client:') || subject.startsWith('sub:') ? `sub:${subject}` : subject;
}

/** `scope` (RFC 9068, space-separated) or `scp` (Entra ID, Okta: a string or an array). */
function scopesOf(claims: Record<string, unknown>): string[] {
  for (const value of [claims.scope, claims.scp]) {
    if (typeof value === 'string') return value.split(' ').filter(Boolean);
    if (Array.isArray(value)) return value.filter((s): s is string => typeof s === 'string');
  }
  return [];
}
