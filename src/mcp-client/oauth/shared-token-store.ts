// OAuth credentials in the shared store (PostgreSQL, sealed): the TokenStore of replicas, so a login
// or a refresh on one replica is what every other replica uses next.
import type { CredentialStore } from '../../store/index.js';
import type { StoredOAuthCredentials } from './credentials.js';
import type { TokenStore } from './token-store.js';

export class SharedTokenStore implements TokenStore {
  constructor(private readonly shared: CredentialStore) {}

  async load(serverKey: string): Promise<StoredOAuthCredentials | undefined> {
    return (await this.shared.load(serverKey)) as StoredOAuthCredentials | undefined;
  }

  save(serverKey: string, credentials: StoredOAuthCredentials): Promise<void> {
    return this.shared.save(serverKey, credentials);
  }

  delete(serverKey: string): Promise<boolean> {
    return this.shared.delete(serverKey);
  }
}
