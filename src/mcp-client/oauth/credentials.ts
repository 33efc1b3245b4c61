// What is stored per server: the SDK's client-information and token objects, unchanged (they carry
// the issuer stamp), plus the absolute expiry; and the key they are stored under (Codex's format).
import { createHash } from 'node:crypto';
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { StoredDpopKey } from './dpop-key.js';

/** What a TokenStore keeps per server: the registered client, the tokens and their expiry. */
export interface StoredOAuthCredentials {
  server_name: string;
  server_url: string;
  /** As saved by the SDK (dynamic registration, CIMD, or a stamped pre-configured client). */
  client_information?: StoredOAuthClientInformation;
  /** As saved by the SDK (issuer-stamped). */
  tokens?: StoredOAuthTokens;
  /** Epoch milliseconds when the access token expires; null when the server gave no expiry. */
  expires_at?: number | null;
  /** Where the protected-resource metadata was found (a WWW-Authenticate hint), for refreshes. */
  resource_metadata_url?: string;
  /** The server's DPoP key pair (`oauth.dpop`): its tokens are bound to it. */
  dpop_key?: StoredDpopKey;
}

/** Built on first use (zod schemas allocate at construction; most processes never read a token store). */
let credentialsSchema: ReturnType<typeof buildCredentialsSchema> | undefined;
const buildCredentialsSchema = () =>
  z
    .object({
      server_name: z.string(),
      server_url: z.string(),
      client_information: z.looseObject({ client_id: z.string() }).optional(),
      tokens: z.looseObject({ access_token: z.string(), token_type: z.string() }).optional(),
      expires_at: z.number().nullable().optional(),
      resource_metadata_url: z.string().optional(),
      dpop_key: z.looseObject({ alg: z.string(), jwk: z.looseObject({ kty: z.string() }) }).optional(),
    })
    .loose();

/** Parse a stored entry; anything malformed reads as absent rather than crashing a connection. */
export function parseStoredCredentials(value: unknown): StoredOAuthCredentials | undefined {
  const parsed = (credentialsSchema ??= buildCredentialsSchema()).safeParse(value);
  return parsed.success ? (parsed.data as StoredOAuthCredentials) : undefined;
}

/**
 * Codex's store key: `<server_name>|<first 16 hex of sha256(json)>` where json is
 * `{"headers":{},"type":"http","url":"<url>"}` (keys sorted, as serde serialises them).
 */
export function oauthStoreKey(serverName: string, serverUrl: string): string {
  const json = `{"headers":{},"type":"http","url":${JSON.stringify(serverUrl)}}`;
  const digest = createHash('sha256').update(json).digest('hex');
  return `${serverName}|${digest.slice(0, 16)}`;
}

export function expiresAtFrom(tokens: StoredOAuthTokens, now: number): number | null {
  return typeof tokens.expires_in === 'number' ? now + tokens.expires_in * 1000 : null;
}

/** True when the access token is missing, expired, or expires within `skewMs`. */
export function accessTokenExpiring(creds: StoredOAuthCredentials, now: number, skewMs: number): boolean {
  if (!creds.tokens?.access_token) return true;
  if (creds.expires_at === undefined || creds.expires_at === null) return false;
  return now + skewMs >= creds.expires_at;
}

/** Codex's rule for "OAuth" status: a client id, and an unexpired access token or a refresh token. */
export function credentialsUsable(creds: StoredOAuthCredentials | undefined, now: number): boolean {
  if (!creds?.tokens || !creds.client_information?.client_id) return false;
  if (creds.tokens.refresh_token) return true;
  return !accessTokenExpiring(creds, now, 0);
}
