// The store's public face: where shared state lives (threads now; sessions and credentials behind
// the same choice), files under $SWITCHBOARD_HOME by default or PostgreSQL for replicas.
export type { StoredThread, ThreadLog, ThreadStore, ThreadSummary } from './thread-store.js';
export { THREAD_ID } from './thread-store.js';
export { credentialsKey, type CredentialStore } from './credentials.js';
export type { SessionStore, StoredEventLog, StoredSessionRecord } from './http-sessions.js';
export { LocalThreadLeases, leaseLost, type ThreadLease, type ThreadLeases } from './thread-leases.js';
export { FileThreadStore, findRolloutFile, fileTimestamp, rolloutPath, sessionsRoot } from './file-thread-store.js';
export { fileStore, openStore, type OpenStoreOptions, type Store, type StoreSettings } from './open-store.js';
export { storeUnavailable, unreachableAtStart, urlNotSet, type DatabaseSource } from './store-errors.js';
