// One server's DPoP key pair (RFC 9449): generated once, kept with its stored OAuth credentials (a
// token, and a public client's refresh token, are bound to it, so the next process must sign with the
// same key) and forgotten with them at logout. The SDK's DpopSession signs proofs and keeps nonces.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { DPOP_SUPPORTED_ALGS, DpopSession, generateDpopKeyPair, type AuthorizationServerMetadata, type DpopAlg, type DpopKeyPair } from '@modelcontextprotocol/client';
import { calculateJwkThumbprint, exportJWK, importJWK, type CryptoKey, type JWK } from 'jose';

/** As stored with the credentials: the private key as a JWK, and the algorithm it signs with. */
export interface StoredDpopKey {
  alg: DpopAlg;
  jwk: JWK;
}

const DEFAULT_ALG: DpopAlg = 'ES256';

/** ES256 unless the authorization server lists proof algorithms without it (then its first one the SDK can sign with). */
export function dpopAlgFor(metadata: AuthorizationServerMetadata | undefined): DpopAlg {
  const listed = (metadata as { dpop_signing_alg_values_supported?: unknown } | undefined)?.dpop_signing_alg_values_supported;
  if (!Array.isArray(listed) || listed.length === 0 || listed.includes(DEFAULT_ALG)) return DEFAULT_ALG;
  return DPOP_SUPPORTED_ALGS.find((alg) => listed.includes(alg)) ?? DEFAULT_ALG;
}

/** A new key pair, exportable so it can be stored (in the 0600 file, the keyring or the sealed shared store). */
export async function createDpopKey(alg: DpopAlg): Promise<StoredDpopKey> {
  const pair = await generateDpopKeyPair({ alg, extractable: true });
  return { alg, jwk: await exportJWK(pair.privateKey) };
}

/** The key pair of a stored key, as the SDK's DpopSession takes it. */
export async function importDpopKey(stored: StoredDpopKey): Promise<DpopKeyPair> {
  const privateKey = (await importJWK(stored.jwk, stored.alg)) as CryptoKey;
  const publicJwk = createPublicKey(createPrivateKey({ key: stored.jwk, format: 'jwk' })).export({ format: 'jwk' }) as JWK;
  const publicKey = (await importJWK(publicJwk, stored.alg)) as CryptoKey;
  return { privateKey, publicKey, publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk, 'sha256'), alg: stored.alg };
}

export async function dpopSessionFor(stored: StoredDpopKey): Promise<DpopSession> {
  return DpopSession.create({ keyPair: await importDpopKey(stored) });
}

/** True when two stored keys are the same key. */
export function sameDpopKey(a: StoredDpopKey | undefined, b: StoredDpopKey | undefined): boolean {
  return a !== undefined && b !== undefined && a.alg === b.alg && JSON.stringify(a.jwk) === JSON.stringify(b.jwk);
}
