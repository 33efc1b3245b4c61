// [server_auth] put together for `serve --http` and `mcp-server --http`: the protected-resource gate
// the HTTP host runs (tokens, limits), the rules the product applies per caller, and the audit trail.
// With a PostgreSQL store, limits and the audit trail are the store's (shared by the replicas).
// A reloaded config changes the rules and limits from the next request; what decides which tokens
// the endpoint accepts, and the audit trail, stay as they started. stdio serves one local client:
// none of it applies there.
import type { Config, ServerAuthSettings } from '../config/index.js';
import type { HttpServeOptions } from '../mcp-host/index.js';
import type { AccessPolicy, AuditSink } from '../mcp-host/access/index.js';
import type { Store } from '../store/index.js';
import { stableJson, type Logger } from '../util/index.js';

export interface ServedAuth {
  /** The host options with the gate added. */
  http: HttpServeOptions;
  access?: AccessPolicy;
  audit?: AuditSink;
  /** A reloaded `[server_auth]`: rules and limits judge the next request; returns what only a restart applies (`key: why`). */
  reload(next: ServerAuthSettings | null): string[];
}

const AT_START = 'decides which tokens the endpoint accepts (and its protected-resource metadata) from the moment it listens';
const IDENTITY_KEYS = { issuer: AT_START, audience: AT_START, required_scopes: AT_START, clock_skew_sec: AT_START, audit: 'the audit trail is opened at start' } as const;

export async function composeServerAuth(config: Config, http: HttpServeOptions, logger: Logger, store: Store): Promise<ServedAuth> {
  const settings = config.server_auth;
  if (!settings) return { http, reload: (next) => (next ? [`server_auth: ${AT_START}; added, it needs a restart`] : []) };
  const [access, httpFace] = await Promise.all([import('../mcp-host/access/index.js'), import('../mcp-host/http/index.js')]);
  const shared = store.audit;
  const audit: AuditSink | undefined = !settings.audit ? undefined : shared ? { record: (r) => shared.append(r) } : access.fileAuditSink(access.auditFilePath(config.home));
  const limitsOf = (s: ServerAuthSettings) => ({ requestsPerMinute: s.limits.requests_per_minute, concurrentCalls: s.limits.concurrent_calls });
  const limits = new access.CallerLimits(limitsOf(settings), store.callerLimits ?? new access.MemoryLimitStore());
  const auth = new httpFace.ResourceAuth({
    issuer: settings.issuer,
    audience: settings.audience,
    requiredScopes: settings.required_scopes,
    clockSkewSec: settings.clock_skew_sec,
    staticToken: http.token,
    limits,
    audit,
    logger,
  });
  const policy = new access.AccessPolicy(settings.rules);
  const reload = (next: ServerAuthSettings | null): string[] => {
    if (!next) return [`server_auth: ${AT_START}; removed, it needs a restart (its rules and limits stay until then)`];
    policy.replaceRules(next.rules);
    limits.update(limitsOf(next));
    return Object.entries(IDENTITY_KEYS).flatMap(([key, why]) => (stableJson(settings[key as keyof typeof IDENTITY_KEYS]) === stableJson(next[key as keyof typeof IDENTITY_KEYS]) ? [] : [`server_auth.${key}: ${why}`]));
  };
  return { http: { ...http, auth }, access: policy, ...(audit ? { audit } : {}), reload };
}
