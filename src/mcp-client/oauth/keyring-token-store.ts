// The OS keyring (Secret Service, macOS Keychain, Windows Credential Manager) via @napi-rs/keyring;
// one entry per server, the value the JSON of the stored credentials. The library is a 3 MB native
// addon: it loads on the first keyring access, not with the OAuth layer every client process links.
import type * as Keyring from '@napi-rs/keyring';
import { SwitchboardError } from '../../util/index.js';
import { parseStoredCredentials, type StoredOAuthCredentials } from './credentials.js';
import type { TokenStore } from './token-store.js';

/** The three keyring operations we use; a seam so tests can pin a specific real backend. */
export interface KeyringBackend {
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, secret: string): Promise<void>;
  delete(service: string, account: string): Promise<boolean>;
}

/**
 * The platform keyring. On Linux it is the Secret Service (GNOME Keyring, KWallet) unless
 * `linuxStore` says otherwise: the library's own fallback, the kernel keyring, forgets its
 * contents at reboot, which would silently log users out; without a Secret Service the auto mode
 * uses the credentials file instead.
 */
export function napiKeyringBackend(options: { linuxStore?: 'secret-service' | 'keyutils' } = {}): KeyringBackend {
  const entryOptions: Keyring.EntryOptions | undefined = { linux: { store: options.linuxStore ?? 'secret-service' } };
  // async so that a constructor failure (no keyring service at all) is a rejection, not a throw.
  const entry = async (service: string, account: string) => new (await keyringLibrary()).AsyncEntry(service, account, entryOptions);
  return {
    get: async (service, account) => (await entry(service, account)).getPassword(),
    set: async (service, account, secret) => (await entry(service, account)).setPassword(secret),
    delete: async (service, account) => (await entry(service, account)).deletePassword(),
  };
}

let library: Promise<typeof Keyring> | undefined;
const keyringLibrary = () => (library ??= import('@napi-rs/keyring'));

export class KeyringTokenStore implements TokenStore {
  constructor(
    private readonly service: string,
    private readonly backend: KeyringBackend,
  ) {}

  async load(serverKey: string): Promise<StoredOAuthCredentials | undefined> {
    const text = await this.wrap('read', () => this.backend.get(this.service, serverKey));
    if (text === null) return undefined;
    try {
      return parseStoredCredentials(JSON.parse(text));
    } catch {
      return undefined;
    }
  }

  async save(serverKey: string, credentials: StoredOAuthCredentials): Promise<void> {
    await this.wrap('write', () => this.backend.set(this.service, serverKey, JSON.stringify(credentials)));
  }

  async delete(serverKey: string): Promise<boolean> {
    return this.wrap('delete', () => this.backend.delete(this.service, serverKey));
  }

  private async wrap<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      try {
        return await fn();
      } catch {
        // One retry: the Linux kernel keyring refuses the first access of a process (AccessDenied).
        return await fn();
      }
    } catch (err) {
      throw new SwitchboardError('keyring_unavailable', `cannot ${what} the OS keyring: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }
}
