// How a server proves who it is, read from its `oauth` table: the grant (browser login, client
// credentials, a workload identity token, an enterprise identity assertion), the client's
// authentication at the token endpoint (none, a secret, a private key) and DPoP. Secrets are read
// here, once, at the server's startup; a misconfigured kind fails that server with the key named.
import { createPrivateKey } from 'node:crypto';
import type { McpServerConfig, OAuthConfig, OAuthIdpConfig } from '../../config/index.js';
import { assertNever, errorMessage } from '../../util/index.js';
import { configPath, oauthConfigError, optionalSecret, secretFromEnv, secretFromFile } from './secret-source.js';
import { TOKEN_TYPES, type ClientCredentials } from './token-grants.js';

export type { ClientCredentials } from './token-grants.js';

/**
 * Where an identity token comes from: a file re-read at every use, a value read at startup, or (acting
 * for a caller upstream) the caller's newest inbound token, read at every use.
 */
export type TokenSource = { file: string } | { value: string } | { read: () => string };

/** The enterprise IdP of an identity assertion grant (token exchange for an ID-JAG). */
export interface IdentityProvider {
  /** Discovered from `issuer` when not configured. */
  tokenEndpoint: string | undefined;
  issuer: string | undefined;
  client: ClientCredentials;
  subjectToken: TokenSource;
  subjectTokenType: string;
}

/** How tokens are obtained. Every kind but authorization_code works without a browser. */
export type OAuthGrant =
  | { kind: 'authorization_code' }
  | { kind: 'client_credentials' }
  /** RFC 7523 jwt-bearer with a workload identity token the platform writes (and rotates) into a file. */
  | { kind: 'jwt_bearer'; assertionFile: string }
  /** Enterprise-managed authorization: token exchange at the IdP, then jwt-bearer with the ID-JAG. */
  | { kind: 'identity_assertion'; idp: IdentityProvider };

/** One server's resolved OAuth credential. */
export interface OAuthCredential {
  grant: OAuthGrant;
  client: ClientCredentials;
  dpop: boolean;
}

export type OAuthGrantKind = OAuthGrant['kind'];

/** True for the grants that never need a browser (machine-to-machine). */
export function isMachineGrant(grant: OAuthGrant): boolean {
  return grant.kind !== 'authorization_code';
}

/** The algorithm a key signs with by default, from its type (RS256, PS256, ES256/384/512, EdDSA). */
function defaultAlgorithm(key: ReturnType<typeof createPrivateKey>): string | undefined {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return 'RS256';
    case 'rsa-pss':
      return 'PS256';
    case 'ed25519':
      return 'EdDSA';
    case 'ec':
      return { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' }[String(key.asymmetricKeyDetails?.namedCurve)];
    default:
      return undefined;
  }
}

/** A private key file (`<prefix>.private_key_file`) as PKCS#8 PEM (what the SDK's signer imports), and its algorithm. */
export function privateKeyOf(server: string, keys: { private_key_file?: string; private_key_alg?: string }, prefix = 'oauth'): ClientCredentials['privateKey'] {
  if (keys.private_key_file === undefined) return undefined;
  const pem = secretFromFile(server, `${prefix}.private_key_file`, keys.private_key_file);
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    throw oauthConfigError(server, `${prefix}.private_key_file does not hold a PEM private key (${errorMessage(err)})`, err);
  }
  const algorithm = keys.private_key_alg ?? defaultAlgorithm(key);
  if (!algorithm) throw oauthConfigError(server, `${prefix}.private_key_file holds a ${key.asymmetricKeyType ?? 'unknown'} key; set ${prefix}.private_key_alg`);
  return { pem: key.export({ type: 'pkcs8', format: 'pem' }).toString(), algorithm };
}

function clientOf(server: string, oauth: OAuthConfig, env: NodeJS.ProcessEnv): ClientCredentials {
  const secret = optionalSecret(
    server,
    { env_var: oauth.client_secret_env_var, file: oauth.client_secret_file },
    { env_var: 'oauth.client_secret_env_var', file: 'oauth.client_secret_file' },
    env,
  );
  if (secret !== undefined && oauth.private_key_file !== undefined) throw oauthConfigError(server, 'set a client secret or oauth.private_key_file, not both');
  const privateKey = privateKeyOf(server, oauth);
  if ((secret !== undefined || privateKey) && !oauth.client_id) throw oauthConfigError(server, 'a client secret or private key needs oauth.client_id');
  return { clientId: oauth.client_id ?? null, ...(secret !== undefined ? { clientSecret: secret } : {}), ...(privateKey ? { privateKey } : {}) };
}

function identityProviderOf(server: string, idp: OAuthIdpConfig | undefined, env: NodeJS.ProcessEnv, callerSubject: (() => string) | undefined): IdentityProvider {
  const needs = (what: string) => oauthConfigError(server, `oauth.grant_type = "identity_assertion" needs ${what}`);
  if (!idp) throw needs('an oauth.idp table (token_endpoint or issuer, client_id, subject_token_file or subject_token_env_var)');
  if (!idp.token_endpoint && !idp.issuer) throw needs('oauth.idp.token_endpoint or oauth.idp.issuer');
  if (!idp.client_id) throw needs('oauth.idp.client_id');
  if (callerSubject === undefined && idp.subject_token_file !== undefined && idp.subject_token_env_var !== undefined) {
    throw oauthConfigError(server, 'set oauth.idp.subject_token_file or oauth.idp.subject_token_env_var, not both');
  }
  let subjectToken: TokenSource;
  if (callerSubject !== undefined) subjectToken = { read: callerSubject };
  else if (idp.subject_token_file !== undefined) subjectToken = { file: configPath(server, 'oauth.idp.subject_token_file', idp.subject_token_file) };
  else if (idp.subject_token_env_var !== undefined) subjectToken = { value: secretFromEnv(server, idp.subject_token_env_var, env) };
  else throw needs('oauth.idp.subject_token_file or oauth.idp.subject_token_env_var');
  const secret = optionalSecret(
    server,
    { env_var: idp.client_secret_env_var, file: idp.client_secret_file },
    { env_var: 'oauth.idp.client_secret_env_var', file: 'oauth.idp.client_secret_file' },
    env,
  );
  return {
    tokenEndpoint: idp.token_endpoint,
    issuer: idp.issuer,
    client: { clientId: idp.client_id, ...(secret !== undefined ? { clientSecret: secret } : {}) },
    subjectToken,
    subjectTokenType: idp.subject_token_type ?? TOKEN_TYPES.idToken,
  };
}

/**
 * The credential `server` is configured for, with its secrets read. Throws a config error naming
 * the key when the kind is incomplete or a secret cannot be read. `callerSubject`: an identity
 * assertion made for a caller (identity = "caller") from that caller's token instead of a configured one.
 */
export function resolveOAuthCredential(server: McpServerConfig, env: NodeJS.ProcessEnv, callerSubject?: () => string): OAuthCredential {
  const oauth: OAuthConfig = server.oauth ?? {};
  const name = server.name;
  const kind = oauth.grant_type ?? 'authorization_code';
  const needs = (what: string) => oauthConfigError(name, `oauth.grant_type = "${kind}" needs ${what}`);
  const client = clientOf(name, oauth, env);
  const dpop = oauth.dpop === true;
  switch (kind) {
    case 'authorization_code':
      return { grant: { kind }, client, dpop };
    case 'client_credentials':
      if (!oauth.client_id) throw needs('oauth.client_id');
      if (client.clientSecret === undefined && !client.privateKey) {
        throw needs('a client secret (oauth.client_secret_env_var or oauth.client_secret_file) or a private key (oauth.private_key_file)');
      }
      return { grant: { kind }, client, dpop };
    case 'jwt_bearer':
      if (!oauth.client_id) throw needs('oauth.client_id');
      if (oauth.assertion_file === undefined) throw needs('oauth.assertion_file (the workload identity token file)');
      return { grant: { kind, assertionFile: configPath(name, 'oauth.assertion_file', oauth.assertion_file) }, client, dpop };
    case 'identity_assertion':
      if (!oauth.client_id) throw needs('oauth.client_id');
      return { grant: { kind, idp: identityProviderOf(name, oauth.idp, env, callerSubject) }, client, dpop };
    default:
      return assertNever(kind, 'oauth.grant_type');
  }
}
