// The TokenStore seam and the `mcp_oauth_credentials_store` modes: keyring, file, or keyring with
// a file fallback (auto), with Codex's semantics for where reads, writes and deletes go.
import path from 'node:path';
import type { CredentialsStoreMode } from '../../config/index.js';
import { errorMessage, type Logger } from '../../util/index.js';
import type { StoredOAuthCredentials } from './credentials.js';
import { FileTokenStore } from './file-token-store.js';
import { KeyringTokenStore, napiKeyringBackend, type KeyringBackend } from './keyring-token-store.js';

/** Where OAuth credentials live, by server key (keyring, file, or memory). */
export interface TokenStore {
  load(serverKey: string): Promise<StoredOAuthCredentials | undefined>;
  save(serverKey: string, credentials: StoredOAuthCredentials): Promise<void>;
  /** True when something was removed. */
  delete(serverKey: string): Promise<boolean>;
}

export const CREDENTIALS_FILE_NAME = '.credentials.json';
export const KEYRING_SERVICE = 'Switchboard MCP Credentials';

/**
 * auto: read the keyring first and fall back to the file when the entry is missing or the keyring
 * fails; write the keyring, falling back to the file with a warning (a successful keyring write
 * removes the file entry); delete from both.
 */
export class AutoTokenStore implements TokenStore {
  constructor(
    private readonly keyring: TokenStore,
    private readonly file: TokenStore,
    private readonly logger: Logger,
  ) {}

  async load(serverKey: string): Promise<StoredOAuthCredentials | undefined> {
    try {
      const fromKeyring = await this.keyring.load(serverKey);
      if (fromKeyring) return fromKeyring;
    } catch (err) {
      this.logger.debug('keyring read failed; using the credentials file', { error: errorMessage(err) });
    }
    return this.file.load(serverKey);
  }

  async save(serverKey: string, credentials: StoredOAuthCredentials): Promise<void> {
    try {
      await this.keyring.save(serverKey, credentials);
    } catch (err) {
      this.logger.warn('failed to write OAuth tokens to the keyring; falling back to the credentials file', { error: errorMessage(err) });
      await this.file.save(serverKey, credentials);
      return;
    }
    await this.file.delete(serverKey);
  }

  async delete(serverKey: string): Promise<boolean> {
    let removed = false;
    try {
      removed = await this.keyring.delete(serverKey);
    } catch (err) {
      this.logger.debug('keyring delete failed', { error: errorMessage(err) });
    }
    return (await this.file.delete(serverKey)) || removed;
  }
}

/** Process-local store for headless runs (the conformance client) that must not touch the home. */
export class MemoryTokenStore implements TokenStore {
  private readonly entries = new Map<string, StoredOAuthCredentials>();

  async load(serverKey: string): Promise<StoredOAuthCredentials | undefined> {
    const entry = this.entries.get(serverKey);
    return entry ? structuredClone(entry) : undefined;
  }

  async save(serverKey: string, credentials: StoredOAuthCredentials): Promise<void> {
    this.entries.set(serverKey, structuredClone(credentials));
  }

  async delete(serverKey: string): Promise<boolean> {
    return this.entries.delete(serverKey);
  }
}

export interface TokenStoreOptions {
  mode: CredentialsStoreMode;
  /** $SWITCHBOARD_HOME: the credentials file lives here. */
  home: string;
  logger: Logger;
  /** Defaults to the OS keyring through @napi-rs/keyring. */
  keyring?: KeyringBackend;
}

export function createTokenStore(options: TokenStoreOptions): TokenStore {
  const file = new FileTokenStore(path.join(options.home, CREDENTIALS_FILE_NAME));
  const keyring = (): TokenStore => new KeyringTokenStore(KEYRING_SERVICE, options.keyring ?? napiKeyringBackend());
  switch (options.mode) {
    case 'file':
      return file;
    case 'keyring':
      return keyring();
    case 'auto':
      return new AutoTokenStore(keyring(), file, options.logger);
  }
}
