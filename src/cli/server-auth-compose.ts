// [server_auth] put together for `serve --http` and `mcp-server --http`: the protected-resource gate
// the HTTP host runs (tokens, limits), the rules the product applies per caller, and the audit trail.
// With a PostgreSQL store, limits and the audit trail are the store's (shared by the replicas).
// stdio serves one local client: none of it applies there.
import type { Config } from '../config/index.js';
import type { HttpServeOptions } from '../mcp-host/index.js';
import type { AccessPolicy, AuditSink } from '../mcp-host/access/index.js';
import type { Store } from '../store/index.js';
import type { Logger } from '../util/index.js';

export interface ServedAuth {
  /** The host options with the gate added. */
  http: HttpServeOptions;
  access?: AccessPolicy;
  audit?: AuditSink;
}

export async function composeServerAuth(config: Config, http: HttpServeOptions, logger: Logger, store: Store): Promise<ServedAuth> {
  const settings = config.server_auth;
  if (!settings) return { http };
  const [access, httpFace] = await Promise.all([import('../mcp-host/access/index.js'), import('../mcp-host/http/index.js')]);
  const shared = store.audit;
  const audit: AuditSink | undefined = !settings.audit ? undefined : shared ? { record: (r) => shared.append(r) } : access.fileAuditSink(access.auditFilePath(config.home));
  const limits = new access.CallerLimits(
    { requestsPerMinute: settings.limits.requests_per_minute, concurrentCalls: settings.limits.concurrent_calls },
    store.callerLimits ?? new access.MemoryLimitStore(),
  );
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
  return { http: { ...http, auth }, access: new access.AccessPolicy(settings.rules), ...(audit ? { audit } : {}) };
}
