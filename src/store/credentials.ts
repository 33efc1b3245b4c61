// Upstream OAuth credentials shared by replicas: stored encrypted (AES-256-GCM) with a key every
// replica reads from an environment variable named in `[store] credentials_key_env_var`, and a lock
// per credential so two replicas never spend one refresh token twice.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { SwitchboardError } from '../util/index.js';

export interface CredentialStore {
  /** The credentials saved under `key` (plain JSON), or undefined. */
  load(key: string): Promise<unknown>;
  save(key: string, value: unknown): Promise<void>;
  /** True when something was removed. */
  delete(key: string): Promise<boolean>;
  /** Hold the refresh lock of `key` across every replica until the returned release runs. */
  lock(key: string): Promise<() => Promise<void>>;
}

export const MIN_KEY_CHARS = 32;

/** The 256-bit key from the variable's value (a random value of at least 32 characters, e.g. `openssl rand -base64 32`). */
export function credentialsKey(envVar: string, env: NodeJS.ProcessEnv): Buffer {
  const value = env[envVar];
  if (value === undefined || value.trim() === '') {
    throw new SwitchboardError(
      'store_not_configured',
      `[store] credentials_key_env_var names ${envVar}, but that environment variable is not set; set it to a random value (e.g. \`openssl rand -base64 32\`), the same on every replica`,
    );
  }
  if (value.trim().length < MIN_KEY_CHARS) {
    throw new SwitchboardError('store_not_configured', `${envVar} ([store] credentials_key_env_var) must hold at least ${MIN_KEY_CHARS} characters of random data (e.g. \`openssl rand -base64 32\`)`);
  }
  return createHash('sha256').update(value.trim()).digest();
}

const VERSION = 1;

/** `v1 | 12-byte nonce | 16-byte tag | ciphertext`; the credential's key is bound as associated data. */
export function seal(key: Buffer, name: string, plain: string): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body]);
}

export function open(key: Buffer, name: string, sealed: Buffer): string {
  if (sealed[0] !== VERSION || sealed.length < 29) throw new SwitchboardError('credentials_unreadable', `stored credentials ${name} are not in a format this version reads`);
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
  decipher.setAAD(Buffer.from(name, 'utf8'));
  decipher.setAuthTag(sealed.subarray(13, 29));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString('utf8');
  } catch (err) {
    throw new SwitchboardError(
      'credentials_unreadable',
      `stored credentials ${name} cannot be decrypted: the key in [store] credentials_key_env_var differs from the one they were saved with (log in again, or restore the old key)`,
      { cause: err },
    );
  }
}
