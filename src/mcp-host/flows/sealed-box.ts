// Opaque values a server hands its clients (task ids, the payload of request state): AES-256-GCM under
// a key derived from the shared request-state key for one purpose, so they reveal nothing (no replica
// address, no caller) and any replica holding the key can open them; a changed byte fails to open.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { RequestStateKey } from './request-state.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SealedBox {
  private key: Promise<Buffer> | undefined;

  /** `purpose` keeps the boxes of different uses apart (a task id never opens as request state). */
  constructor(
    private readonly source: RequestStateKey,
    private readonly purpose: string,
  ) {}

  async seal(plain: Uint8Array): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', await this.keyNow(), iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The sealed bytes, or undefined for anything this key did not seal. */
  async open(text: string): Promise<Buffer | undefined> {
    const raw = Buffer.from(text, 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES || raw.toString('base64url') !== text) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', await this.keyNow(), raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
    } catch {
      return undefined;
    }
  }

  private keyNow(): Promise<Buffer> {
    this.key ??= this.source.key().then((key) => createHmac('sha256', key).update(`switchboard sealed box\u0000${this.purpose}`).digest());
    return this.key;
  }
}
