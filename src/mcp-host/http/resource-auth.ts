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
  type JSONRPCRequest,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { bearerMatches, errorMessage, isSwitchboardError, type Logger } from '../../util/index.js';
import { authInfoFor, callerOf, STATIC_CALLER, type Caller } from '../access/caller.js';
import type { AuditDescriber, AuditSink } from '../access/audit-trail.js';
import type { Admission, CallerLimits } from '../access/caller-limits.js';
import { glimpseJsonBody, sendJson } from './http-io.js';
import type { JwtVerifier } from './jwt-verifier.js';
import { CallSlot, withCallSlot } from '../access/call-slot.js';

/** Messages that only keep a session going: never counted against a caller's requests per minute. */
const LIFECYCLE = new Set(['notifications/initialized', 'notifications/cancelled']);

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
  async authenticate(req: http.IncomingMessage, res: http.ServerResponse, endpointPath: string, describe?: AuditDescriber): Promise<Caller | null> {
    const header = req.headers.authorization;
    // --insecure-no-auth on loopback (checked by the host): whoever connects is the operator.
    if (this.options.staticToken === null && !this.verifier) return STATIC_CALLER;
    if (this.options.staticToken !== null && bearerMatches(header, this.options.staticToken)) return STATIC_CALLER;
    if (!this.verifier) {
      this.refused(undefined, { ...(await glimpsed(req, undefined, describe)), outcome: 'unauthorized' });
      sendJson(res, 401, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Unauthorized: send "Authorization: Bearer <token>" with the server\'s token' } }, { 'WWW-Authenticate': 'Bearer realm="switchboard"' });
      return null;
    }
    const challenge = { requiredScopes: [...(this.options.requiredScopes ?? [])], resourceMetadataUrl: this.metadataUrl(req, endpointPath) };
    let verified: AuthInfo | undefined;
    try {
      // RFC 6750: exactly `Bearer <b64token>`; the SDK's parser would take the first word after it.
      if (header !== undefined && !BEARER.test(header)) throw new OAuthError(OAuthErrorCode.InvalidToken, "Invalid Authorization header format, expected 'Bearer TOKEN'");
      const jwt = await this.verifier;
      const verifier: OAuthTokenVerifier = {
        verifyAccessToken: async (token) => {
          verified = await jwt.verify(token);
          return verified;
        },
      };
      const info = await verifyBearerToken(header, { verifier, ...challenge });
      return callerOf(info)!;
    } catch (err) {
      if (isSwitchboardError(err, 'auth_keys_unavailable')) {
        sendJson(res, 503, { error: 'temporarily_unavailable', error_description: err.message }, { 'Retry-After': '30' });
        return null;
      }
      const refusal = bearerAuthChallengeResponse(err instanceof OAuthError ? err : new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid token'), challenge);
      // A valid token short of a scope is a known caller (403); any other refusal names none (401).
      this.refused(callerOf(verified), { ...(await glimpsed(req, callerOf(verified), describe)), outcome: refusal.status === 403 ? 'forbidden' : 'unauthorized' });
      res.writeHead(refusal.status, Object.fromEntries(refusal.headers));
      res.end(await refusal.text());
      return null;
    }
  }

  /**
   * Before a POST's body is read, whether `caller` is within its requests per minute at all (a
   * caller over its limit cannot hold the server with a slow or large body): true to go on, false
   * once the 429 was sent. `admit` then counts its messages.
   */
  async admitBody(caller: Caller, req: http.IncomingMessage, res: http.ServerResponse, describe?: AuditDescriber): Promise<boolean> {
    if (!this.options.limits?.active) return true;
    return this.decide(caller, res, () => glimpsed(req, caller, describe), () => this.options.limits!.within(caller.key), () => {}, { connection: 'close' });
  }

  /**
   * The caller's limits for this POST's messages (every request and every notification but the
   * lifecycle ones; a concurrent-call slot per tools/call, which a task created by the call keeps):
   * the call slot to give the request, or false once the refusal was sent.
   */
  async admit(caller: Caller, messages: readonly JSONRPCMessage[], res: http.ServerResponse, describe?: AuditDescriber): Promise<CallSlot | undefined | false> {
    const limits = this.options.limits;
    if (!limits?.active) return undefined;
    const counted = messages.filter((m) => 'method' in m && !LIFECYCLE.has((m as { method: string }).method));
    const calls = counted.filter((m) => 'id' in m && (m as { method: string }).method === 'tools/call');
    let slot: CallSlot | undefined;
    const described = async () => describeRequest(counted, undefined, caller, describe);
    const admitted = await this.decide(caller, res, described, () => limits.admit(caller.key, counted.length, calls.length), (release) => {
      slot = calls.length > 0 ? new CallSlot(release) : undefined;
      if (slot) res.once('close', () => slot!.requestEnded());
      else res.once('close', release);
    });
    return admitted ? slot : false;
  }

  /** What the product reads from `ctx.http.authInfo` (the token itself is not in it), with the request's call slot. */
  authInfo(caller: Caller, slot?: CallSlot): AuthInfo {
    const info = authInfoFor(caller, undefined);
    return slot ? withCallSlot(info, slot) : info;
  }

  private async decide(
    caller: Caller,
    res: http.ServerResponse,
    described: () => Promise<RequestDescription>,
    ask: () => Promise<Admission>,
    admitted: (release: () => void) => void,
    // Before the body is read (or all of it), the connection cannot carry another request.
    headers: Record<string, string> = {},
  ): Promise<boolean> {
    let admission;
    try {
      admission = await ask();
    } catch (err) {
      // The limits live in a shared store that is down: refuse for now rather than serve unlimited.
      this.options.logger.warn('could not check a caller against its limits', { error: errorMessage(err) });
      const { id } = await described();
      sendJson(res, 503, { jsonrpc: '2.0', id, error: { code: -32000, message: `Service unavailable: cannot check this caller's limits: ${errorMessage(err)}` } }, { 'Retry-After': '5', ...headers });
      return false;
    }
    if (admission.ok) {
      admitted(admission.release);
      return true;
    }
    const { id, ...audited } = await described();
    this.refused(caller, { ...audited, outcome: admission.message.startsWith('Too many concurrent') ? 'too_many_calls' : 'rate_limited' });
    sendJson(res, 429, { jsonrpc: '2.0', id, error: { code: -32000, message: admission.message } }, { 'Retry-After': String(admission.retryAfterSec), ...headers });
    return false;
  }

  /** A request on another caller's session (answered as if the session did not exist): recorded with the caller that tried. */
  refusedSession(caller: Caller | undefined, messages: readonly JSONRPCMessage[], req: http.IncomingMessage, session: string, describe?: AuditDescriber): void {
    const { id: _id, ...what } = describeRequest(messages, req, caller, describe);
    this.refused(caller, { ...what, outcome: 'refused_session', session });
  }

  /** An audit record for a request refused at the door, with whatever identity is known. */
  refused(caller: Caller | undefined, what: { method: string; tool?: string; upstream?: string; outcome: string; session?: string }): void {
    this.options.audit?.record({
      time: new Date().toISOString(),
      subject: caller?.subject ?? null,
      client_id: caller?.clientId ?? null,
      method: what.method,
      ...(what.tool !== undefined ? { tool: what.tool } : {}),
      ...(what.upstream !== undefined ? { upstream: what.upstream } : {}),
      outcome: what.outcome,
      duration_ms: 0,
      ...(what.session !== undefined ? { session: what.session } : {}),
    });
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

/** How much of a refused body is read, and for how long, to name what it asked. */
const GLIMPSE_BYTES = 64 * 1024;
const GLIMPSE_MS = 1_000;

type RequestDescription = { method: string; tool?: string; upstream?: string; id: string | number | null };

/**
 * What a request refused before its body was read asked, for its audit record: its body's, if the
 * body arrives whole and small soon enough (a refused caller cannot hold the server with it).
 */
async function glimpsed(req: http.IncomingMessage, caller: Caller | undefined, describe: AuditDescriber | undefined): Promise<RequestDescription> {
  return describeRequest(req.method === 'POST' ? await glimpseJsonBody(req, GLIMPSE_BYTES, GLIMPSE_MS) : [], req, caller, describe);
}

/**
 * The first request's method, id and tool, with what the product adds (the real tool behind a tool
 * that calls others, the upstream); without a body, the 2026-07-28 `Mcp-Method` and `Mcp-Name`
 * headers, or the HTTP method.
 */
function describeRequest(messages: readonly JSONRPCMessage[], req: http.IncomingMessage | undefined, caller: Caller | undefined, describe: AuditDescriber | undefined): RequestDescription {
  const header = (name: string) => (typeof req?.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
  const first = messages.find((m) => 'method' in m && 'id' in m) as JSONRPCRequest | undefined;
  const notification = messages.find((m) => 'method' in m) as { method: string } | undefined;
  const method = first?.method ?? notification?.method ?? header('mcp-method') ?? req?.method ?? 'unknown';
  const request: JSONRPCRequest | undefined = first ?? (method === 'tools/call' && header('mcp-name') ? { jsonrpc: '2.0', id: 0, method, params: { name: header('mcp-name') } } : undefined);
  const name = (request?.params as { name?: unknown } | undefined)?.name;
  let described: { tool?: string; upstream?: string } | undefined;
  try {
    described = request ? describe?.(request, caller) : undefined;
  } catch {
    // the record goes out without it
  }
  const tool = described?.tool ?? (typeof name === 'string' ? name.slice(0, 512) : undefined);
  return { method, ...(tool !== undefined ? { tool } : {}), ...(described?.upstream !== undefined ? { upstream: described.upstream } : {}), id: first?.id ?? null };
}
