// One caller's view of the callers' credential store, as the TokenStore an OAuthSession reads and
// writes: the same login, refresh and logout code serves a caller's own login as the operator's.
import type { CallerCredentialStore } from '../../store/index.js';
import { parseStoredCredentials, type StoredOAuthCredentials } from './credentials.js';
import type { TokenStore } from './token-store.js';

export class CallerTokenStore implements TokenStore {
  constructor(
    private readonly store: CallerCredentialStore,
    private readonly caller: string,
    /** The server's name in config.toml (what `switchboard credentials list` shows). */
    private readonly server: string,
  ) {}

  async load(serverKey: string): Promise<StoredOAuthCredentials | undefined> {
    return parseStoredCredentials(await this.store.load(this.caller, serverKey));
  }

  save(serverKey: string, credentials: StoredOAuthCredentials): Promise<void> {
    return this.store.save(this.caller, this.server, serverKey, credentials);
  }

  delete(serverKey: string): Promise<boolean> {
    return this.store.delete(this.caller, serverKey);
  }

  /** The refresh lock of this caller's credential, across every replica. */
  lock(serverKey: string): Promise<() => Promise<void>> {
    return this.store.lock(this.caller, serverKey);
  }

  /** When the credential was last saved; undefined once it is gone (revoked, or never stored). */
  stamp(serverKey: string): Promise<string | undefined> {
    return this.store.stamp(this.caller, serverKey);
  }
}
