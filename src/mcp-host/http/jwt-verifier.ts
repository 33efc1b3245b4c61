// JWT access tokens checked with jose: signature against the issuer's keys (an unknown kid fetches
// them again), iss, aud, exp (required) and nbf with a small clock skew, asymmetric algorithms
// only. A token that passed is remembered until it expires, so a busy caller costs one map lookup
// per request; a retired signing key voids what it signed.
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import { decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Logger } from '../../util/index.js';
import { authInfoFor, callerFromClaims, type Caller } from '../access/caller.js';
import { IssuerKeys } from './issuer-keys.js';

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const CACHE_LIMIT = 10_000;

export interface JwtVerifierOptions {
  issuer: string;
  audience: string;
  clockSkewSec: number;
  logger: Logger;
  fetchFn?: typeof fetch;
}

interface Verified {
  caller: Caller;
  kid: string | undefined;
  /** Seconds since the epoch, skew applied. */
  notAfter: number;
  notBefore: number;
}

export class JwtVerifier {
  readonly keys: IssuerKeys;
  private readonly verified = new Map<string, Verified>();

  constructor(private readonly options: JwtVerifierOptions) {
    this.keys = new IssuerKeys({ issuer: options.issuer, logger: options.logger, fetchFn: options.fetchFn });
  }

  /** The token's AuthInfo (the caller in `extra.caller`), or an OAuthError invalid_token saying why. */
  async verify(token: string): Promise<AuthInfo> {
    const now = Date.now() / 1000;
    const known = this.verified.get(token);
    if (known && now < known.notAfter && now >= known.notBefore && this.keys.holds(known.kid)) return this.info(known);
    if (known) this.verified.delete(token);
    const entry = await this.check(token);
    if (this.verified.size >= CACHE_LIMIT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, entry);
    return this.info(entry);
  }

  private info(v: Verified): AuthInfo {
    // The SDK checks expiresAt again without a skew; jose has applied it already.
    return authInfoFor(v.caller, v.notAfter);
  }

  private async check(token: string): Promise<Verified> {
    // Only the canonical compact form: base64url decoders ignore stray bits in a last character, and
    // a token that differs from a signed one in any character must not pass as that token.
    if (!isCanonicalCompactJws(token)) throw invalid('The access token is not a JWT');
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw invalid('The access token is not a JWT');
    }
    const verifyWith = async (getKey: Awaited<ReturnType<IssuerKeys['keys']>>['getKey']) =>
      jwtVerify(token, getKey, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: this.options.clockSkewSec,
        algorithms: ALGORITHMS,
        requiredClaims: ['exp'],
      });
    let payload: JWTPayload;
    try {
      try {
        payload = (await verifyWith((await this.keys.keys()).getKey)).payload;
      } catch (err) {
        if (!(err instanceof errors.JWKSNoMatchingKey)) throw err;
        const fresh = await this.keys.unknownKid(kid);
        if (!fresh) throw err;
        payload = (await verifyWith(fresh.getKey)).payload;
      }
    } catch (err) {
      throw mapJoseError(err);
    }
    const skew = this.options.clockSkewSec;
    return {
      caller: callerFromClaims(this.options.issuer, payload as Record<string, unknown>, token),
      kid,
      notAfter: payload.exp! + skew,
      notBefore: (payload.nbf ?? 0) - skew,
    };
  }
}

const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function isCanonicalCompactJws(token: string): boolean {
  return token.length <= 16_384 && COMPACT.test(token) && token.split('.').every((part) => Buffer.from(part, 'base64url').toString('base64url') === part);
}

function invalid(description: string): OAuthError {
  return new OAuthError(OAuthErrorCode.InvalidToken, description);
}

/** jose's verdicts as the invalid_token descriptions a client (and its user) can act on. */
function mapJoseError(err: unknown): unknown {
  if (err instanceof errors.JWTExpired) return invalid('The access token has expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return invalid('The access token was not issued for this resource (audience)');
    if (err.claim === 'iss') return invalid('The access token was not issued by the configured issuer');
    if (err.claim === 'nbf') return invalid('The access token is not valid yet');
    return invalid(`The access token's ${err.claim} claim is missing or invalid`);
  }
  if (err instanceof errors.JWKSNoMatchingKey) return invalid('The access token is signed by a key the issuer does not publish');
  if (err instanceof errors.JOSEAlgNotAllowed) return invalid('The access token is signed with an algorithm this server does not accept');
  if (err instanceof errors.JOSEError) return invalid('The access token is invalid');
  return err;
}
