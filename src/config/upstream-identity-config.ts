// Whose identity reaches an HTTP upstream when switchboard serves callers (`identity`), and the
// `[mcp_servers.<name>.token_exchange]` table (RFC 8693): the checks that tie them to the server's
// other keys, and which kind of caller identity a server's keys make.
import { ConfigError } from './config-error.js';
import type { TokenExchangeConfig, UpstreamIdentityMode } from './mcp-server-schema.js';

/** How a caller-identity server acts for each caller, from its keys (checked by {@link checkUpstreamIdentity}). */
export type CallerIdentityKind = 'token_exchange' | 'identity_assertion' | 'caller_login';

interface IdentityKeys {
  name: string;
  identity: UpstreamIdentityMode;
  token_exchange: TokenExchangeConfig | null;
  oauth: { grant_type?: string; idp?: { subject_token_file?: string; subject_token_env_var?: string } } | null;
  transport: { type: string; bearer_token_env_var?: string | null; http_headers?: Record<string, string> | null; env_http_headers?: Record<string, string> | null };
}

/** The kind of a caller-identity server; undefined for an operator-identity one. */
export function callerIdentityKind(server: Pick<IdentityKeys, 'identity' | 'token_exchange' | 'oauth'>): CallerIdentityKind | undefined {
  if (server.identity !== 'caller') return undefined;
  if (server.token_exchange) return 'token_exchange';
  return server.oauth?.grant_type === 'identity_assertion' ? 'identity_assertion' : 'caller_login';
}

/** The keys that only make sense together: each refusal says which key to change. */
export function checkUpstreamIdentity(server: IdentityKeys): void {
  const fail = (key: string, message: string): never => {
    throw new ConfigError(message, { keyPath: ['mcp_servers', server.name, key] });
  };
  const t = server.transport;
  if (server.identity !== 'caller') {
    if (server.token_exchange) fail('token_exchange', 'token_exchange needs identity = "caller" (it exchanges each caller\'s own token)');
    return;
  }
  const headers = [...Object.keys(t.http_headers ?? {}), ...Object.keys(t.env_http_headers ?? {})];
  if (t.bearer_token_env_var) fail('bearer_token_env_var', 'identity = "caller" cannot use bearer_token_env_var: that token is the operator\'s, sent for every caller');
  if (headers.some((h) => h.toLowerCase() === 'authorization')) fail('http_headers', 'identity = "caller" cannot send a fixed Authorization header: it would be the same for every caller');
  const grant = server.oauth?.grant_type;
  if (server.token_exchange) {
    const x = server.token_exchange;
    if (grant !== undefined) fail('token_exchange', 'set token_exchange or oauth.grant_type, not both: token exchange replaces the OAuth grant');
    if (!x.token_endpoint && !x.issuer) fail('token_exchange', 'token_exchange needs token_endpoint (or issuer, whose metadata names it)');
    if (!x.audience && !x.resource) fail('token_exchange', 'token_exchange needs audience or resource: the upstream the exchanged token is for');
    if (x.client_secret_env_var !== undefined && x.client_secret_file !== undefined) fail('token_exchange', 'set token_exchange.client_secret_env_var or client_secret_file, not both');
    const secret = x.client_secret_env_var !== undefined || x.client_secret_file !== undefined;
    if (secret && x.private_key_file !== undefined) fail('token_exchange', 'set a client secret or token_exchange.private_key_file, not both');
    if ((secret || x.private_key_file !== undefined) && !x.client_id) fail('token_exchange', 'a client secret or private key needs token_exchange.client_id');
    return;
  }
  if (grant === 'client_credentials' || grant === 'jwt_bearer') {
    fail('oauth', `oauth.grant_type = "${grant}" is the gateway's own machine identity; with identity = "caller" use token_exchange, "identity_assertion" or a browser login`);
  }
  const idp = server.oauth?.idp;
  if (grant === 'identity_assertion' && (idp?.subject_token_file !== undefined || idp?.subject_token_env_var !== undefined)) {
    fail('oauth', 'with identity = "caller" the identity assertion is made from each caller\'s token: remove oauth.idp.subject_token_file / subject_token_env_var');
  }
}
