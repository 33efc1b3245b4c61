// The HTTP MCP endpoint as an OAuth 2.1 protected resource (MCP authorization, RFC 9728): its
// metadata at /.well-known/oauth-protected-resource, the 401/403 challenges, JWT access tokens
// checked with jose against the issuer's keys (with the static token beside them for one user),
// then the caller's limits. The SDK's bearer helpers parse the header and shape the challenges.
import type http from 'node:http';
import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
  type JSONRPCMessage,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { bearerMatches, errorMessage, isSwitchboardError, type Logger } from '../../util/index.js';
import { authInfoFor, callerOf, STATIC_CALLER, type Caller } from '../access/caller.js';
import type { AuditSink } from '../access/audit-trail.js';
import type { CallerLimits } from '../access/caller-limits.js';
import { sendJson } from './http-io.js';
import type { JwtVerifier } from './jwt-verifier.js';

export interface ResourceAuthOptions {
  /** The authorization server whose JWT access tokens are accepted; absent: the static token only. */
  issuer?: string;
  /** The `aud` tokens must carry: this server's resource identifier (RFC 8707), usually its URL. */
  audience?: string;
  requiredScopes?: readonly string[];
  clockSkewSec?: number;
  /** The single-user static token, accepted beside OAuth tokens (its holder is unrestricted). */
  staticToken: string | null;
  limits?: CallerLimits;
  audit?: AuditSink;
  logger: Logger;
  /** For tests: how keys and metadata are fetched. */
  fetchFn?: typeof fetch;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const BEARER = /^Bearer [A-Za-z0-9\-._~+/]+=*$/i;

export class ResourceAuth {
  // jose and the SDK client's discovery load only when OAuth is configured (jose alone takes
  // 150 ms and more to import on a busy machine: too much for every `serve` and `mcp-server`).
  private readonly verifier: Promise<JwtVerifier> | undefined;

  constructor(private readonly options: ResourceAuthOptions) {
    const { issuer, audience } = options;
    if (issuer !== undefined && audience !== undefined) {
      this.verifier = import('./jwt-verifier.js').then(
        (m) => new m.JwtVerifier({ issuer, audience, clockSkewSec: options.clockSkewSec ?? 30, logger: options.logger, fetchFn: options.fetchFn }),
      );
      this.verifier.catch(() => {}); // reported by the first request that needs it
    }
  }

  /** OAuth access tokens are accepted (so a server without a static token is not an open door). */
  get acceptsOAuth(): boolean {
    return this.verifier !== undefined;
  }

  /** The RFC 9728 document at the root or path-suffixed well-known URL; true when it answered. */
  serveMetadata(req: http.IncomingMessage, res: http.ServerResponse, url: URL, endpointPath: string): boolean {
    if (!this.verifier || !this.metadataPaths(endpointPath).includes(url.pathname)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, { error: 'method_not_allowed' }, { Allow: 'GET, HEAD' });
      return true;
    }
    const scopes = this.options.requiredScopes ?? [];
    sendJson(res, 200, {
      resource: this.resourceUrl(req, endpointPath),
      authorization_servers: [this.options.issuer],
      bearer_methods_supported: ['header'],
      ...(scopes.length > 0 ? { scopes_supported: scopes } : {}),
      resource_name: 'switchboard',
    }, { 'Access-Control-Allow-Origin': '*' }); // public metadata: browser-based clients may read it
    return true;
  }

  /** The caller a request's token stands for, or null once the refusal (401, 403, 503) was sent. */
  async authenticate(req: http.IncomingMessage, res: http.ServerResponse, endpointPath: string): Promise<Caller | null> {
    const header = req.headers.authorization;
    // --insecure-no-auth on loopback (checked by the host): whoever connects is the operator.
    if (this.options.staticToken === null && !this.verifier) return STATIC_CALLER;
    if (this.options.staticToken !== null && bearerMatches(header, this.options.staticToken)) return STATIC_CALLER;
    if (!this.verifier) {
      sendJson(res, 401, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Unauthorized: send "Authorization: Bearer <token>" with the server\'s token' } }, { 'WWW-Authenticate': 'Bearer realm="switchboard"' });
      return null;
    }
    const challenge = { requiredScopes: [...(this.options.requiredScopes ?? [])], resourceMetadataUrl: this.metadataUrl(req, endpointPath) };
    try {
      // RFC 6750: exactly `Bearer <b64token>`; the SDK's parser would take the first word after it.
      if (header !== undefined && !BEARER.test(header)) throw new OAuthError(OAuthErrorCode.InvalidToken, "Invalid Authorization header format, expected 'Bearer TOKEN'");
      const jwt = await this.verifier;
      const verifier: OAuthTokenVerifier = { verifyAccessToken: (token) => jwt.verify(token) };
      const info = await verifyBearerToken(header, { verifier, ...challenge });
      return callerOf(info)!;
    } catch (err) {
      if (isSwitchboardError(err, 'auth_keys_unavailable')) {
        sendJson(res, 503, { error: 'temporarily_unavailable', error_description: err.message }, { 'Retry-After': '30' });
        return null;
      }
      const refusal = bearerAuthChallengeResponse(err instanceof OAuthError ? err : new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid token'), challenge);
      res.writeHead(refusal.status, Object.fromEntries(refusal.headers));
      res.end(await refusal.text());
      return null;
    }
  }

  /** The caller's limits for this POST's messages: true to go on, false once the 429 was sent. */
  async admit(caller: Caller, messages: readonly JSONRPCMessage[], res: http.ServerResponse): Promise<boolean> {
    const limits = this.options.limits;
    if (!limits?.active) return true;
    const requests = messages.filter((m) => 'method' in m && 'id' in m);
    const calls = requests.filter((m) => (m as { method: string }).method === 'tools/call').length;
    let admission;
    try {
      admission = await limits.admit(caller.key, requests.length, calls);
    } catch (err) {
      // The limits live in a shared store that is down: refuse for now rather than serve unlimited.
      this.options.logger.warn('could not check a caller against its limits', { error: errorMessage(err) });
      const first = requests[0] as { id?: string | number } | undefined;
      sendJson(res, 503, { jsonrpc: '2.0', id: first?.id ?? null, error: { code: -32000, message: `Service unavailable: cannot check this caller's limits: ${errorMessage(err)}` } }, { 'Retry-After': '5' });
      return false;
    }
    if (admission.ok) {
      res.once('close', admission.release);
      return true;
    }
    const first = requests[0] as { id?: string | number; method?: string } | undefined;
    this.options.audit?.record({
      time: new Date().toISOString(),
      subject: caller.subject,
      client_id: caller.clientId,
      method: first?.method ?? 'unknown',
      outcome: calls > 0 && admission.message.startsWith('Too many concurrent') ? 'too_many_calls' : 'rate_limited',
      duration_ms: 0,
    });
    sendJson(res, 429, { jsonrpc: '2.0', id: first?.id ?? null, error: { code: -32000, message: admission.message } }, { 'Retry-After': String(admission.retryAfterSec) });
    return false;
  }

  /** What the product reads from `ctx.http.authInfo` (the token itself is not in it). */
  authInfo(caller: Caller): AuthInfo {
    return authInfoFor(caller, undefined);
  }

  /** The root form, and the path-suffixed forms for the local endpoint and the audience's path (a proxy may map one to the other). */
  private metadataPaths(endpointPath: string): string[] {
    const audiencePath = URL.parse(this.options.audience ?? '')?.pathname.replace(/\/$/, '');
    return [WELL_KNOWN, `${WELL_KNOWN}${endpointPath}`, ...(audiencePath ? [`${WELL_KNOWN}${audiencePath}`] : [])];
  }

  private resourceUrl(req: http.IncomingMessage, endpointPath: string): string {
    const audience = this.options.audience;
    const url = audience !== undefined ? URL.parse(audience) : null;
    if (url && (url.protocol === 'https:' || url.protocol === 'http:')) return url.href;
    return `http://${req.headers.host ?? 'localhost'}${endpointPath}`;
  }

  private metadataUrl(req: http.IncomingMessage, endpointPath: string): string {
    return getOAuthProtectedResourceMetadataUrl(new URL(this.resourceUrl(req, endpointPath)));
  }
}
