// Token exchange for a caller (RFC 8693, `[mcp_servers.<name>.token_exchange]`): the caller's
// validated inbound token is traded at the configured token endpoint for a token aimed at the
// upstream, which that caller's connection presents. The issued token is kept until shortly before
// it expires; a 401 from the upstream drops it, and the next request exchanges again.
import type { AuthProvider, FetchLike } from '@modelcontextprotocol/client';
import type { McpServerConfig, TokenExchangeConfig } from '../../config/index.js';
import { McpClientError, Secret } from '../../util/index.js';
import type { UpstreamCaller } from '../caller-identity.js';
import { privateKeyOf } from './credential-config.js';
import { oauthReason } from './machine-grants.js';
import { oauthConfigError, optionalSecret } from './secret-source.js';
import { discoverTokenEndpoint, exchangeToken, TOKEN_TYPES, type ClientCredentials, type TokenEndpoint } from './token-grants.js';

/** An exchanged token is exchanged again this long before it expires (at most a quarter of its life). */
export const EXCHANGE_SKEW_MS = 60_000;

/** One server's `token_exchange` table with its secrets read (once, at the server's first caller). */
export interface ExchangeSettings {
  serverName: string;
  endpoint: () => Promise<TokenEndpoint>;
  client: ClientCredentials;
  audience: string | undefined;
  resource: string | undefined;
  scope: string | undefined;
  subjectTokenType: string;
  requestedTokenType: string | undefined;
  fetch?: FetchLike;
  now: () => number;
}

/** The settings of `server`'s token_exchange table; a config error names the key at fault. */
export function exchangeSettings(server: McpServerConfig, env: NodeJS.ProcessEnv, options: { fetch?: FetchLike; now?: () => number } = {}): ExchangeSettings {
  const x: TokenExchangeConfig | null = server.token_exchange;
  if (!x) throw oauthConfigError(server.name, 'token_exchange is not configured');
  const secret = optionalSecret(server.name, { env_var: x.client_secret_env_var, file: x.client_secret_file }, { env_var: 'token_exchange.client_secret_env_var', file: 'token_exchange.client_secret_file' }, env);
  const privateKey = privateKeyOf(server.name, x, 'token_exchange');
  let discovered: Promise<TokenEndpoint> | undefined;
  const endpoint = (): Promise<TokenEndpoint> => {
    if (x.token_endpoint) return Promise.resolve({ url: x.token_endpoint, ...(x.issuer ? { issuer: x.issuer } : {}) });
    discovered ??= discoverTokenEndpoint(x.issuer!, { fetch: options.fetch }).catch((err: unknown) => {
      discovered = undefined;
      throw err;
    });
    return discovered;
  };
  return {
    serverName: server.name,
    endpoint,
    client: { clientId: x.client_id ?? null, ...(secret !== undefined ? { clientSecret: secret } : {}), ...(privateKey ? { privateKey } : {}) },
    audience: x.audience,
    resource: x.resource,
    scope: x.scopes && x.scopes.length > 0 ? x.scopes.join(' ') : undefined,
    subjectTokenType: x.subject_token_type ?? TOKEN_TYPES.accessToken,
    requestedTokenType: x.requested_token_type,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    now: options.now ?? Date.now,
  };
}

/** The token one caller's connection to one server presents: exchanged from the caller's own, cached until near expiry. */
export class ExchangedToken implements AuthProvider {
  private subject: Secret | undefined;
  private issued: { token: Secret; refreshAt: number } | undefined;
  /** The exchange under way, and the caller's token it trades. */
  private exchanging: { subject: string | undefined; token: Promise<string> } | undefined;
  /** Exchanges made for this caller (tests and the status page read it). */
  exchanges = 0;

  constructor(
    private readonly settings: ExchangeSettings,
    caller: UpstreamCaller,
  ) {
    this.subject = caller.token;
  }

  renew(caller: UpstreamCaller): void {
    if (caller.token) this.subject = caller.token;
  }

  async token(): Promise<string> {
    const held = this.issued;
    if (held && this.settings.now() < held.refreshAt) return held.token.reveal();
    // Requests arriving during an exchange share it, unless the caller has presented another token
    // since it began: the old one may have expired or been revoked, and its refusal must not fail a
    // request that carries a good one.
    const subject = this.subject?.reveal();
    if (!this.exchanging || this.exchanging.subject !== subject) {
      const run: { subject: string | undefined; token: Promise<string> } = {
        subject,
        token: this.exchange().finally(() => {
          if (this.exchanging === run) this.exchanging = undefined;
        }),
      };
      this.exchanging = run;
    }
    return this.exchanging.token;
  }

  /** The upstream refused the token: the next request exchanges again (the SDK retries once). */
  async onUnauthorized(): Promise<void> {
    this.issued = undefined;
  }

  private async exchange(): Promise<string> {
    const s = this.settings;
    const subject = this.subject;
    if (!subject) {
      throw new McpClientError('auth_required', `MCP server '${s.serverName}' exchanges each caller's access token (token_exchange), but this caller presented none`);
    }
    let issued;
    try {
      issued = await exchangeToken({
        endpoint: await s.endpoint(),
        client: s.client,
        subjectToken: subject.reveal(),
        subjectTokenType: s.subjectTokenType,
        ...(s.requestedTokenType ? { requestedTokenType: s.requestedTokenType } : {}),
        ...(s.audience ? { audience: s.audience } : {}),
        ...(s.resource ? { resource: s.resource } : {}),
        ...(s.scope ? { scope: s.scope } : {}),
        ...(s.fetch ? { fetch: s.fetch } : {}),
        now: s.now,
      });
    } catch (err) {
      const text = `Auth required: the token exchange for MCP server '${s.serverName}' was refused (${oauthReason(err)}); check [mcp_servers.${s.serverName}.token_exchange] and that the caller's token is accepted there`;
      throw new McpClientError('auth_required', text, { cause: err });
    }
    this.exchanges += 1;
    const now = s.now();
    const lifetime = issued.expiresAt === null ? Number.POSITIVE_INFINITY : issued.expiresAt - now;
    const refreshAt = issued.expiresAt === null ? Number.POSITIVE_INFINITY : issued.expiresAt - Math.min(EXCHANGE_SKEW_MS, lifetime / 4);
    const token = issued.tokens.access_token;
    // A newer exchange (for the caller's newer token) keeps its own result.
    if (this.subject?.reveal() === subject.reveal()) this.issued = { token: new Secret(token), refreshAt };
    return token;
  }
}
