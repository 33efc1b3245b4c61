// Maps what the SDK, fetch and our transports throw onto McpClientError codes, in one place.
import {
  InsufficientScopeError,
  OAuthClientFlowError,
  OAuthError,
  OAuthErrorCode,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { errorMessage, isSwitchboardError } from '../util/index.js';
import { HTTP_BODY_PREVIEW_BYTES, MAX_STEP_UP_RETRIES } from './defaults.js';
import { McpClientError } from './errors.js';

/** What the HTTP layer saw last; errors thrown by the SDK do not carry the challenge header. */
export interface HttpObservations {
  /** The WWW-Authenticate header of the last 401/403 answer. */
  challenge?: string;
  /** The Authorization header of the last request answered 401 or 403. */
  rejectedAuthorization?: string;
}

export interface ClassifyContext {
  /** Why the connection ended, when the transport told us (process exit, bad output). */
  closeReason?: McpClientError;
  http?: HttpObservations;
}

export function classifyError(err: unknown, ctx: ClassifyContext = {}): McpClientError {
  if (err instanceof McpClientError) return err;
  // The OAuth layer's own "not logged in" (no usable token): its code is shared with the client.
  if (isSwitchboardError(err, 'auth_required')) return new McpClientError('auth_required', err.message, { status: 401, challenge: ctx.http?.challenge, cause: err });
  // Its scope step-up that cannot be done here (no browser) or was refused: keep its code and its text,
  // which names the login that fixes it.
  if (isSwitchboardError(err, 'insufficient_scope')) {
    const requiredScope = (err as { requiredScope?: unknown }).requiredScope;
    return new McpClientError('insufficient_scope', err.message, {
      status: 403,
      challenge: ctx.http?.challenge,
      requiredScope: typeof requiredScope === 'string' ? requiredScope : undefined,
      cause: err,
    });
  }
  if (err instanceof SdkHttpError) return fromHttpError(err, ctx);
  if (err instanceof UnauthorizedError) return authRequired(401, ctx.http?.challenge, err);
  if (err instanceof InsufficientScopeError) {
    return insufficientScope(ctx.http?.challenge, err.requiredScope, err);
  }
  if (err instanceof OAuthError) return fromOAuthError(err, ctx);
  // Any other failure of the OAuth flow (discovery, issuer checks, registration) means no usable token.
  if (err instanceof OAuthClientFlowError) return authRequired(401, ctx.http?.challenge, err);
  if (err instanceof SdkError) return fromSdkError(err, ctx);
  if (err instanceof ProtocolError) {
    return new McpClientError('protocol', `MCP error ${err.code}: ${err.message}`, { rpcCode: err.code, cause: err });
  }
  if (err instanceof SseError) {
    const status = typeof err.code === 'number' ? err.code : undefined;
    if (status === 401) return authRequired(401, ctx.http?.challenge, err);
    if (status !== undefined) return httpStatusError(status, err.message, ctx.http?.challenge, err);
    return new McpClientError('network', err.message, { cause: err });
  }
  if (isFetchFailure(err)) {
    const cause = (err as { cause?: unknown }).cause;
    return new McpClientError('network', `error sending request: ${cause ? errorMessage(cause) : errorMessage(err)}`, { cause: err });
  }
  return new McpClientError('protocol', errorMessage(err), { cause: err });
}

/** A failed refresh asks for a new login, except when the authorization server is merely unwell. */
function fromOAuthError(err: OAuthError, ctx: ClassifyContext): McpClientError {
  if (err.code === OAuthErrorCode.ServerError || err.code === OAuthErrorCode.TemporarilyUnavailable) {
    return new McpClientError('http_status', `failed to refresh OAuth tokens: ${err.code}: ${err.message}`, { cause: err });
  }
  const challenge = ctx.http?.challenge;
  return new McpClientError('auth_required', `Auth required: OAuth ${err.code}: ${err.message}`, { status: 401, challenge, cause: err });
}

function fromSdkError(err: SdkError, ctx: ClassifyContext): McpClientError {
  switch (err.code) {
    case SdkErrorCode.ConnectionClosed:
    case SdkErrorCode.NotConnected:
    case SdkErrorCode.SendFailed:
      return ctx.closeReason ?? new McpClientError('connection_closed', `connection to MCP server closed: ${err.message}`, { cause: err });
    case SdkErrorCode.RequestTimeout:
      return new McpClientError('timeout', err.message, { cause: err });
    case SdkErrorCode.InvalidResult:
    case SdkErrorCode.ClientHttpUnexpectedContent:
      return new McpClientError('decode', err.message, { cause: err });
    case SdkErrorCode.ListPaginationExceeded:
      return new McpClientError('pagination', err.message, { cause: err });
    case SdkErrorCode.EraNegotiationFailed: {
      // What made the server/discover probe fail (no answer, an HTTP status, the process exiting)
      // decides retries and the message, as it would for initialize.
      if (ctx.closeReason) return ctx.closeReason;
      const inner = err.cause === undefined ? undefined : classifyError(err.cause, ctx);
      return inner && inner.code !== 'protocol' ? inner : new McpClientError('protocol', err.message, { cause: err });
    }
    default:
      return new McpClientError('protocol', err.message, { cause: err });
  }
}

function fromHttpError(err: SdkHttpError, ctx: ClassifyContext): McpClientError {
  const status = err.status;
  if (err.code === SdkErrorCode.ClientHttpAuthentication || status === 401) return authRequired(401, ctx.http?.challenge, err);
  // The SDK throws this only once a request's step-up re-authorizations are used up.
  if (err.code === SdkErrorCode.ClientHttpForbidden) return insufficientScope(ctx.http?.challenge, undefined, err, MAX_STEP_UP_RETRIES);
  const text = typeof err.data.text === 'string' ? err.data.text : (err.statusText ?? '');
  return httpStatusError(status, text, ctx.http?.challenge, err);
}

/** The mapping of a non-2xx answer that is not a session expiry. */
export function httpStatusError(status: number, body: string, challenge: string | undefined, cause?: unknown): McpClientError {
  if (status === 401) return authRequired(401, challenge, cause);
  if (status === 403 && challenge !== undefined && isInsufficientScope(challenge)) return insufficientScope(challenge, undefined, cause);
  return new McpClientError('http_status', `HTTP ${status}: ${bodyPreview(body)}`, { status, cause });
}

export function authRequired(status: number, challenge: string | undefined, cause?: unknown): McpClientError {
  const suffix = challenge ? ` (WWW-Authenticate: ${challenge})` : '';
  return new McpClientError('auth_required', `Auth required: the MCP server answered HTTP ${status}${suffix}`, { status, challenge, cause });
}

export function insufficientScope(challenge: string | undefined, scope: string | undefined, cause?: unknown, stepUps?: number): McpClientError {
  const required = scope ?? (challenge ? challengeParam(challenge, 'scope') : undefined);
  const wants = required ? `; it requires scope \`${required}\`` : '';
  const after = stepUps ? ` after ${stepUps} step-up re-authorization${stepUps === 1 ? '' : 's'} with wider scopes` : '';
  return new McpClientError('insufficient_scope', `Insufficient scope: the MCP server answered HTTP 403${after}${wants}`, {
    status: 403,
    challenge,
    requiredScope: required,
    cause,
  });
}

export function sessionExpired(cause?: unknown): McpClientError {
  return new McpClientError('session_expired', 'streamable HTTP session expired with 404 Not Found', { status: 404, cause });
}

export function isInsufficientScope(challenge: string): boolean {
  return /error\s*=\s*"?insufficient_scope"?/i.test(challenge);
}

function challengeParam(challenge: string, name: string): string | undefined {
  const match = new RegExp(`${name}\\s*=\\s*"([^"]*)"`, 'i').exec(challenge) ?? new RegExp(`${name}\\s*=\\s*([^,\\s]+)`, 'i').exec(challenge);
  return match?.[1];
}

export function bodyPreview(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length <= HTTP_BODY_PREVIEW_BYTES) return body;
  return `${bytes.subarray(0, HTTP_BODY_PREVIEW_BYTES).toString('utf8')}…`;
}

/** undici reports refused/reset connections as a TypeError whose cause carries a system error code. */
/** A request that never got an HTTP answer (refused, reset, DNS): fetch's TypeError with a coded cause. */
export function isFetchFailure(err: unknown): boolean {
  if (!(err instanceof TypeError)) return false;
  const cause = (err as { cause?: unknown }).cause;
  return typeof cause === 'object' && cause !== null && typeof (cause as { code?: unknown }).code === 'string';
}
