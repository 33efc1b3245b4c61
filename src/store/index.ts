// The store's public face: where shared state lives (threads, sessions, credentials, and what
// [server_auth] keeps: thread owners, limit counters, the audit trail), files under $SWITCHBOARD_HOME
// by default or PostgreSQL for replicas.
export type { StoredThread, ThreadLog, ThreadStore, ThreadSummary } from './thread-store.js';
export { THREAD_ID } from './thread-store.js';
export { credentialsKey, type CredentialStore } from './credentials.js';
export type { CallerCredentialFilter, CallerCredentialStore, CallerCredentialSummary } from './caller-credentials.js';
export type { SessionStore, StoredEventLog, StoredSessionRecord } from './http-sessions.js';
export { LocalThreadLeases, leaseLost, type ThreadLease, type ThreadLeases } from './thread-leases.js';
export { FileThreadStore, findRolloutFile, fileTimestamp, rolloutPath, sessionsRoot } from './file-thread-store.js';
export { fileStore, openStore, type OpenStoreOptions, type Store, type StoreSettings } from './open-store.js';
export { storeUnavailable, unreachableAtStart, urlNotSet, type DatabaseSource } from './store-errors.js';
export { FileThreadOwnerStore, threadOwnersFile, type ThreadOwnerStore } from './thread-owners.js';
export type { SharedLimitCounters } from './caller-limits.js';
export type { AuditLog, StoredAuditRecord } from './audit-log.js';
