// The multi-round-trip `requestState` a server hands its 2026-07-28 clients: its payload encrypted
// (sealed-box.ts: no caller, tool or replica address readable in it), then minted by the SDK's codec
// (HMAC-SHA256, bound to the method, with an expiry) under a key from a small provider, bounded in
// size, and opened again with a clear error for state that was altered, expired or is too large.
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, ProtocolError, ProtocolErrorCode, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { SealedBox } from './sealed-box.js';

/**
 * Where the HMAC key comes from. The default is a random key per process (state minted by one
 * process is refused by another); a shared store (e.g. PostgreSQL) can supply one key to every
 * instance behind a load balancer.
 */
export interface RequestStateKey {
  /** At least 32 bytes. Asked once per sealer. */
  key(): Promise<Uint8Array>;
}

export function randomRequestStateKey(): RequestStateKey {
  const key = randomBytes(32);
  return { key: async () => key };
}

/** Longest requestState accepted back: the sealed payload is a few ids, so anything longer was not minted here. */
export const MAX_REQUEST_STATE_CHARS = 2048;
export const DEFAULT_REQUEST_STATE_TTL_MS = 10 * 60_000;

const WHY: Record<string, string> = {
  mac: 'it was altered (its signature does not match)',
  malformed: 'it is not a requestState this server minted',
  expired: 'it expired',
  bind: 'it was minted for another request',
};

/** What the codec mints: the payload, sealed. */
interface Opaque {
  s: string;
}

export class RequestStateSealer<T> {
  private codec: Promise<RequestStateCodec<Opaque>> | undefined;
  private readonly box: SealedBox;

  constructor(
    private readonly source: RequestStateKey,
    readonly ttlMs: number = DEFAULT_REQUEST_STATE_TTL_MS,
  ) {
    this.box = new SealedBox(source, 'request state');
  }

  async seal(payload: T, ctx: ServerContext): Promise<string> {
    const s = await this.box.seal(Buffer.from(JSON.stringify(payload)));
    return (await this.codecNow()).mint({ s }, ctx);
  }

  /** The payload of state this server sealed; a -32602 error saying why for anything else. */
  async open(state: string, ctx: ServerContext): Promise<T> {
    if (state.length > MAX_REQUEST_STATE_CHARS) throw refused(`it is ${state.length} characters long, more than the ${MAX_REQUEST_STATE_CHARS} this server mints`);
    let opaque: Opaque;
    try {
      opaque = await (await this.codecNow()).verify(state, ctx);
    } catch (err) {
      const reason = err instanceof Error ? err.message : '';
      throw refused(WHY[reason] ?? WHY.malformed!);
    }
    const plain = typeof opaque?.s === 'string' ? await this.box.open(opaque.s) : undefined;
    if (!plain) throw refused(WHY.malformed!);
    return JSON.parse(plain.toString('utf8')) as T;
  }

  private codecNow(): Promise<RequestStateCodec<Opaque>> {
    // The state is bound to the method, so it cannot be replayed on another kind of request.
    this.codec ??= this.source.key().then((key) =>
      createRequestStateCodec<Opaque>({ key, ttlSeconds: Math.max(1, Math.ceil(this.ttlMs / 1000)), bind: (ctx) => ctx.mcpReq.method }),
    );
    return this.codec;
  }
}

export function refused(why: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid requestState: ${why}; send the request again without requestState and inputResponses`, {
    reason: 'invalid_request_state',
  });
}
