import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accessTokenExpiring, credentialsUsable, expiresAtFrom, oauthStoreKey, parseStoredCredentials, type StoredOAuthCredentials } from './credentials.js';

describe('oauthStoreKey', () => {
  it("is Codex's `<name>|<16 hex of sha256 of the sorted-key JSON>`", () => {
    const url = 'https://mcp.example.com/mcp';
    const digest = createHash('sha256').update('{"headers":{},"type":"http","url":"https://mcp.example.com/mcp"}').digest('hex');
    expect(oauthStoreKey('docs', url)).toBe(`docs|${digest.slice(0, 16)}`);
    expect(oauthStoreKey('docs', url)).not.toBe(oauthStoreKey('docs', 'https://mcp.example.com/other'));
  });
});

describe('credential rules', () => {
  const now = 1_000_000;
  const base: StoredOAuthCredentials = { server_name: 's', server_url: 'u', client_information: { client_id: 'c' }, tokens: { access_token: 'a', token_type: 'Bearer' } };

  it('usable: client id and (unexpired access token or refresh token)', () => {
    expect(credentialsUsable(undefined, now)).toBe(false);
    expect(credentialsUsable({ ...base, expires_at: null }, now)).toBe(true);
    expect(credentialsUsable({ ...base, expires_at: now + 1 }, now)).toBe(true);
    expect(credentialsUsable({ ...base, expires_at: now - 1 }, now)).toBe(false);
    expect(credentialsUsable({ ...base, expires_at: now - 1, tokens: { ...base.tokens!, refresh_token: 'r' } }, now)).toBe(true);
    expect(credentialsUsable({ ...base, client_information: { client_id: '' } }, now)).toBe(false);
  });

  it('expiring within the skew; no expiry means never', () => {
    expect(accessTokenExpiring({ ...base, expires_at: now + 59_000 }, now, 60_000)).toBe(true);
    expect(accessTokenExpiring({ ...base, expires_at: now + 61_000 }, now, 60_000)).toBe(false);
    expect(accessTokenExpiring({ ...base, expires_at: null }, now, 60_000)).toBe(false);
    expect(expiresAtFrom({ access_token: 'a', token_type: 'Bearer', expires_in: 30 }, now)).toBe(now + 30_000);
    expect(expiresAtFrom({ access_token: 'a', token_type: 'Bearer' }, now)).toBeNull();
  });

  it('keeps unknown fields (the SDK objects are stored unchanged) and rejects malformed entries', () => {
    const parsed = parseStoredCredentials({ ...base, tokens: { ...base.tokens, issuer: 'https://as/', extra: 1 } });
    expect(parsed?.tokens).toMatchObject({ issuer: 'https://as/', extra: 1 });
    expect(parseStoredCredentials({ server_name: 1 })).toBeUndefined();
  });
});
