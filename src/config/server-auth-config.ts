// [server_auth]: how `serve --http` and `mcp-server --http` accept OAuth access tokens (issuer,
// audience, scopes), which caller may see and call what (rules over token claims), what a caller's
// `codex` arguments may change (the agent server's ceilings), the per-caller limits and the audit
// trail, as zod schemas with the texts a user sees.
// zod/v3 (inside the zod 4 package): it loads in ~6.5 ms where 'zod' (v4) takes ~40 ms, on every CLI start.
import { z } from 'zod/v3';
import { APPROVAL_POLICIES, SANDBOX_MODES } from '../protocol/values.js';
import { ConfigError } from './config-error.js';
import { builtOnFirstUse, isObjectTable, says, wholeNumber } from './schema-fields.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http on a loopback host (a local authorization server in development and tests). */
function isIssuerUrl(value: string): boolean {
  const url = URL.parse(value);
  if (!url || url.search !== '' || url.hash !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

const text = (t: string) => says(() => t);
const patternText = 'allow and deny must be arrays of "server__tool" patterns (* and ? as wildcards)';

const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');
const configKeysText = 'config_keys must be an array of dotted config keys such as "model_reasoning_effort", or "*" for any key';
const cwdRootsText = 'cwd_roots must be an array of absolute directory paths such as "/srv/projects"';

/** `[server_auth]`'s schema, built when a config.toml has the table (builtOnFirstUse). */
const serverAuthSchema = builtOnFirstUse(() => {
  const patterns = z.array(z.string(text(patternText)).min(1, patternText), text(patternText)).default([]);

  const whenSchema = z
    .object(
      {
        claim: z.string(text('when.claim must be a claim name such as "groups" or "realm_access.roles"')).min(1, 'when.claim must not be empty'),
        contains: z.union([z.string(), z.number(), z.boolean()], text('when.contains must be a string, number or boolean')).optional(),
        equals: z.union([z.string(), z.number(), z.boolean()], text('when.equals must be a string, number or boolean')).optional(),
      },
      text('when must be a table such as { claim = "groups", contains = "payments" }'),
    )
    .strict('when takes only claim and one of contains or equals')
    .refine((w) => (w.contains === undefined) !== (w.equals === undefined), 'when needs exactly one of contains or equals');

  const ruleSchema = z
    .object(
      {
        when: whenSchema.optional(),
        allow: patterns,
        deny: patterns,
        threads: z.enum(['own', 'all'], text('threads must be "own" or "all"')).default('own'),
        // The agent server's ceilings for the arguments of `codex` (absent: the server's own settings).
        sandbox: z.enum(SANDBOX_MODES, text(`sandbox must be one of ${quoted(SANDBOX_MODES)}`)).optional(),
        approval_policy: z.enum(APPROVAL_POLICIES, text(`approval_policy must be one of ${quoted(APPROVAL_POLICIES)}`)).optional(),
        config_keys: z.array(z.string(text(configKeysText)).min(1, configKeysText), text(configKeysText)).optional(),
        cwd_roots: z.array(z.string(text(cwdRootsText)).refine((p) => p.startsWith('/'), cwdRootsText), text(cwdRootsText)).optional(),
      },
      text('each [[server_auth.rules]] entry must be a table'),
    )
    .strict('a rule takes only when, allow, deny, threads, sandbox, approval_policy, config_keys and cwd_roots');

  const limitsSchema = z
    .object(
      {
        requests_per_minute: wholeNumber(1, 1_000_000, () => 'limits.requests_per_minute must be a whole number between 1 and 1000000', { booleans: false }).optional(),
        concurrent_calls: wholeNumber(1, 10_000, () => 'limits.concurrent_calls must be a whole number between 1 and 10000', { booleans: false }).optional(),
      },
      text('limits must be a table such as { requests_per_minute = 600, concurrent_calls = 8 }'),
    )
    .strict('limits takes only requests_per_minute and concurrent_calls')
    .default({});

  return z
    .object({
      issuer: z
        .string(text('issuer must be a string'))
        .refine(isIssuerUrl, 'issuer must be an https:// URL without query or fragment (http:// only on localhost or 127.0.0.1)')
        .optional(),
      audience: z.string(text('audience must be a string')).min(1, 'audience must not be empty').optional(),
      required_scopes: z.array(z.string(text('required_scopes must be an array of strings')), text('required_scopes must be an array of strings')).default([]),
      clock_skew_sec: wholeNumber(0, 300, () => 'clock_skew_sec must be a whole number of seconds between 0 and 300', { booleans: false }).optional(),
      rules: z.array(ruleSchema, text('rules must be an array of tables ([[server_auth.rules]])')).default([]),
      limits: limitsSchema,
      audit: z.boolean(text('audit must be true or false')).default(true),
      /** The --token-file holder over HTTP may change anything a `codex` call can, as over stdio. */
      trust_static_token: z.boolean(text('trust_static_token must be true or false')).default(false),
    })
    .superRefine((s, ctx) => {
      if (s.issuer !== undefined && s.audience === undefined) {
        ctx.addIssue({ code: 'custom', path: ['audience'], message: 'audience is required with issuer: the resource your tokens are issued for, e.g. "https://mcp.example.com/mcp"' });
      }
      if (s.issuer === undefined && s.audience !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['issuer'], message: 'issuer is required with audience: the authorization server, e.g. "https://login.example.com/realms/team"' });
      }
    });
});

export type ServerAuthSettings = z.output<ReturnType<typeof serverAuthSchema>>;

/** `[server_auth]`, or null when the table is absent. */
export function parseServerAuth(raw: unknown): ServerAuthSettings | null {
  if (raw === undefined) return null;
  if (!isObjectTable(raw)) throw new ConfigError('server_auth must be a table', { keyPath: ['server_auth'] });
  const parsed = serverAuthSchema().safeParse(raw);
  if (parsed.success) return { ...parsed.data, clock_skew_sec: parsed.data.clock_skew_sec ?? 30 };
  const issue = parsed.error.issues[0]!;
  // Name the rule by its index (rules.1), the key inside it by the message.
  const keyPath = ['server_auth', ...issue.path.slice(0, issue.path[0] === 'rules' ? 2 : 1).map(String)];
  throw new ConfigError(issue.message, { keyPath });
}
