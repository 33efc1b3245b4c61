// [server_auth] as the composition root wires it: the rules a caller's claims match, per-caller
// limits (in memory, or the store's shared counters), and the audit trail and its reader.
export { AccessPolicy, UNRESTRICTED, type AccessRule } from './access-rules.js';
export { STATIC_CALLER } from './caller.js';
export { CallerLimits, MemoryLimitStore, type CallerLimitStore, type CallerLimitSettings } from './caller-limits.js';
export { auditFilePath, fileAuditSink, type AuditRecord, type AuditSink } from './audit-trail.js';
export { readAuditTail, type AuditTailOptions } from './audit-reader.js';
