// The OAuth layer's typed errors; callers decide by `code` (auth_required is shared with the client).
import { SwitchboardError } from '../../util/index.js';

/** Codex's display text for a server that needs (another) login. */
export function notLoggedInMessage(serverName: string): string {
  return `The ${serverName} MCP server is not logged in. Run \`switchboard mcp login ${serverName}\`.`;
}

/** No usable credentials: never logged in, logged out, or the refresh token was rejected. */
export class OAuthAuthRequiredError extends SwitchboardError {
  declare readonly code: 'auth_required';
  readonly serverName: string;

  constructor(serverName: string, options: { cause?: unknown } = {}) {
    super('auth_required', notLoggedInMessage(serverName), options);
    this.name = 'OAuthAuthRequiredError';
    this.serverName = serverName;
  }
}

/**
 * A credential that needs no login cannot get a token: the authorization server or the identity
 * provider refused it, or it cannot be used (an expired workload token). A new login would not help,
 * so the text says what to check instead.
 */
export class OAuthCredentialError extends SwitchboardError {
  declare readonly code: 'auth_required';
  readonly serverName: string;
  /** The OAuth `error` code the server answered with, when it answered one. */
  readonly oauthError: string | undefined;

  constructor(serverName: string, detail: string, options: { cause?: unknown; oauthError?: string } = {}) {
    super('auth_required', `MCP server '${serverName}': ${detail}`, { cause: options.cause });
    this.name = 'OAuthCredentialError';
    this.serverName = serverName;
    this.oauthError = options.oauthError;
  }
}

/**
 * A refresh that failed for a reason a retry may fix (server_error, network, timeout). Deliberately
 * not auth_required: the stored login is still good and the user must not be told to log in again.
 */
export class OAuthRefreshFailedError extends SwitchboardError {
  declare readonly code: 'oauth_refresh_failed';

  constructor(serverName: string, detail: string, options: { cause?: unknown } = {}) {
    super('oauth_refresh_failed', `failed to refresh OAuth tokens for server ${serverName}: ${detail}`, options);
    this.name = 'OAuthRefreshFailedError';
  }
}

/** The server wants scopes the stored login does not have, and they cannot be obtained here. */
export class OAuthInsufficientScopeError extends SwitchboardError {
  declare readonly code: 'insufficient_scope';
  readonly requiredScope: string | undefined;

  constructor(serverName: string, requestedScope: string | undefined, reason: 'interactive' | 'retry_limit') {
    // offline_access is how a refresh token is asked for, not something the server requires.
    const requiredScope = requestedScope?.split(/\s+/).filter((s) => s !== '' && s !== 'offline_access').join(' ') || undefined;
    const scopes = requiredScope ? ` (${requiredScope})` : '';
    const message =
      reason === 'retry_limit'
        ? `Insufficient scope: the ${serverName} MCP server still rejects the token after re-authorization${scopes}.`
        : `Insufficient scope: the ${serverName} MCP server requires additional OAuth scopes${scopes}. ` +
          `Run \`switchboard mcp login ${serverName}${requiredScope ? ` --scopes ${requiredScope.split(/\s+/).join(',')}` : ''}\`.`;
    super('insufficient_scope', message);
    this.name = 'OAuthInsufficientScopeError';
    this.requiredScope = requiredScope;
  }
}

/** The login flow failed: the provider answered with an error, the callback timed out, ... */
export class OAuthLoginError extends SwitchboardError {
  /** The OAuth `error` code from the authorization server, when it sent one. */
  readonly oauthError: string | undefined;

  constructor(code: 'oauth_provider_error' | 'oauth_callback_timeout' | 'oauth_login_failed' | 'oauth_unsupported', message: string, options: { cause?: unknown; oauthError?: string } = {}) {
    super(code, message, { cause: options.cause });
    this.name = 'OAuthLoginError';
    this.oauthError = options.oauthError;
  }
}

/** Codex's texts for an `error=` callback. */
export function providerErrorMessage(error: string | null, description: string | null): string {
  if (error && description) return `OAuth provider returned \`${error}\`: ${description}`;
  if (error) return `OAuth provider returned \`${error}\``;
  if (description) return `OAuth error: ${description}`;
  return 'OAuth provider returned an error';
}
