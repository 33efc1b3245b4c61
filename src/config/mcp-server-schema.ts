// The [mcp_servers.<name>] table (Codex's keys, plus startup_mode/environment/transport) as zod schemas:
// the one source of its keys, of their validation and texts, and of the parsed types.
// zod/v3 (inside the zod 4 package): it loads in ~6.5 ms where 'zod' (v4) takes ~40 ms, on every CLI start.
import { z } from 'zod/v3';
import { boolean, builtOnFirstUse, isTable, nonNegativeNumber, oneOf, pathOf, safeString, says, string, stringArray, stringTable, table, type Raw } from './schema-fields.js';

const ENV_VAR_ENTRY_TEXT = 'env_vars entries must be a name or { name = "NAME", source = "local" | "remote" }';

/** `"NAME"` or `{ name = "NAME", source = "local" | "remote" }`. */
const envVarEntry = z.union(
  [
    z.string().transform((name) => ({ name, source: 'local' as const })),
    z.object({ name: z.string(), source: z.enum(['local', 'remote']).default('local') }),
  ],
  says(({ input }) =>
    isTable(input) && typeof input.name === 'string'
      ? `unsupported env_vars source \`${safeString(input.source)}\`; expected \`local\` or \`remote\``
      : ENV_VAR_ENTRY_TEXT,
  ),
);

/** Keys of a stdio server, in the order they are checked (the first problem is the one reported). */
const stdioShape = {
  command: string,
  args: stringArray.optional(),
  env: stringTable.optional(),
  env_vars: z.array(envVarEntry, says(() => 'env_vars must be an array of names or { name, source } tables')).optional(),
  cwd: string.optional(),
};

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Keys of an HTTP server's connection, in check order. */
const httpShape = {
  url: string.refine(isHttpUrl, (input) => ({ message: `url must be an http:// or https:// URL, got ${JSON.stringify(input)}` })),
  /** `sse` is the legacy HTTP+SSE transport, chosen explicitly. */
  transport: oneOf(['streamable_http', 'sse'], 'transport must be "streamable_http" or "sse"').optional(),
  bearer_token_env_var: string.optional(),
  http_headers: stringTable.optional(),
  env_http_headers: stringTable.optional(),
};

/** JWS algorithms a private key may sign client assertions with (RFC 7518; EdDSA for Ed25519 keys). */
export const PRIVATE_KEY_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

/** A secret written in config.toml itself (`<section>.<key>`): refused, with where it belongs instead. */
const inlineSecret = (section: string, key: string, instead: string) => z.undefined(says(() => `${section}.${key} is not supported; ${instead}`));

/** A server's `oauth` table, built when a config.toml has one (builtOnFirstUse; z.lazy below). */
const oauthTable = builtOnFirstUse(() => {
  /** `true`/`false`, named by its full path (`oauth.dpop must be true or false`). */
  const flag = z.boolean(says((iss) => `${pathOf(iss)} must be true or false`));

  /**
   * `oauth.idp`: the enterprise identity provider of `grant_type = "identity_assertion"`, where the
   * subject's identity token is exchanged (RFC 8693) for an identity assertion (ID-JAG).
   */
  const idp = table(
    {
      /** Its issuer URL (the token endpoint is discovered), or the token endpoint itself. */
      issuer: string.optional(),
      token_endpoint: string.optional(),
      client_id: string.optional(),
      client_secret_env_var: string.optional(),
      client_secret_file: string.optional(),
      /** The identity token exchanged: re-read from this file at every exchange, or taken from this variable. */
      subject_token_file: string.optional(),
      subject_token_env_var: string.optional(),
      /** Its RFC 8693 type URN (default `urn:ietf:params:oauth:token-type:id_token`). */
      subject_token_type: string.optional(),
    },
    () => 'oauth.idp must be a table such as { token_endpoint = "...", subject_token_file = "..." }',
  );

  return table(
    {
      client_id: string.optional(),
      client_secret: inlineSecret('oauth', 'client_secret', 'put the secret in an environment variable (oauth.client_secret_env_var) or a 0600 file (oauth.client_secret_file)'),
      private_key: inlineSecret('oauth', 'private_key', 'put the key in a 0600 file and set oauth.private_key_file'),
      /** The client secret: a variable or a file (0600) holding it, never the value itself. */
      client_secret_env_var: string.optional(),
      client_secret_file: string.optional(),
      /** private_key_jwt client authentication (RFC 7523): a PKCS#8 PEM key file (0600) and its algorithm. */
      private_key_file: string.optional(),
      private_key_alg: z.enum(PRIVATE_KEY_ALGS, says(() => `oauth.private_key_alg must be one of ${PRIVATE_KEY_ALGS.join(', ')}`)).optional(),
      grant_type: z
        .enum(
          ['authorization_code', 'client_credentials', 'jwt_bearer', 'identity_assertion'],
          says(() => 'oauth.grant_type must be "authorization_code", "client_credentials", "jwt_bearer" or "identity_assertion"'),
        )
        .optional(),
      /** jwt_bearer: the workload identity token file, re-read at every token request (it rotates). */
      assertion_file: string.optional(),
      idp: idp.optional(),
      /** Sender-constrained tokens (RFC 9449): DPoP proofs on every token and MCP request. */
      dpop: flag.optional(),
    },
    () => 'oauth must be a table such as { client_id = "..." }',
  );
});

/** `token_exchange` (RFC 8693): each caller's inbound token traded for one aimed at the upstream (identity = "caller"); built when a config.toml has one. */
const tokenExchangeTable = builtOnFirstUse(() => {
  return table(
    {
      /** The token endpoint, or the issuer whose metadata names it. */
      token_endpoint: string.optional(),
      issuer: string.optional(),
      /** The target: RFC 8693 `audience` and/or RFC 8707 `resource` (at least one). */
      audience: string.optional(),
      resource: string.optional(),
      scopes: stringArray.optional(),
      client_id: string.optional(),
      client_secret: inlineSecret('token_exchange', 'client_secret', 'put the secret in an environment variable (token_exchange.client_secret_env_var) or a 0600 file (token_exchange.client_secret_file)'),
      client_secret_env_var: string.optional(),
      client_secret_file: string.optional(),
      private_key_file: string.optional(),
      private_key_alg: z.enum(PRIVATE_KEY_ALGS, says(() => `token_exchange.private_key_alg must be one of ${PRIVATE_KEY_ALGS.join(', ')}`)).optional(),
      /** The caller's token as RFC 8693 names its type (default an access token). */
      subject_token_type: string.optional(),
      requested_token_type: string.optional(),
    },
    () => 'token_exchange must be a table such as { token_endpoint = "...", audience = "..." }',
  );
});

/** Server settings that only an HTTP server may have. */
const httpOnlySettingsShape = {
  oauth: z.lazy(oauthTable).optional(),
  oauth_resource: string.optional(),
  /** Whose credential reaches the server when switchboard serves callers: the operator's (default) or each caller's. */
  identity: oneOf(['operator', 'caller'], 'identity must be "operator" (one credential for every caller) or "caller" (each caller\'s own)').optional(),
  token_exchange: z.lazy(tokenExchangeTable).optional(),
};

/** Settings with more than one name: the first name present is read; the names after it are neither read nor checked. */
const FALLBACKS = [
  ['startup_timeout_sec', 'startup_timeout_ms'],
  ['environment', 'environment_id', 'experimental_environment'],
] as const;

function withoutShadowedNames(raw: unknown): unknown {
  if (!isTable(raw)) return raw;
  let out: Raw | undefined;
  for (const names of FALLBACKS) {
    const present = names.filter((n) => raw[n] !== undefined);
    for (const shadowed of present.slice(1)) delete (out ??= { ...raw })[shadowed];
  }
  return out ?? raw;
}

/** Settings of every server, in check order. */
const settingsShape = {
  startup_timeout_sec: nonNegativeNumber.optional(),
  startup_timeout_ms: nonNegativeNumber.optional(),
  startup_mode: oneOf(['eager', 'lazy'], 'startup_mode must be "eager" or "lazy"').default('eager'),
  environment: string.optional(),
  environment_id: string.optional(),
  experimental_environment: string.optional(),
  enabled: boolean.default(true),
  required: boolean.default(false),
  tool_timeout_sec: nonNegativeNumber.optional(),
  stop_after_idle_sec: nonNegativeNumber.optional(),
  enabled_tools: stringArray.optional(),
  disabled_tools: stringArray.optional(),
  ...httpOnlySettingsShape,
  scopes: stringArray.optional(),
  supports_parallel_tool_calls: boolean.default(false),
  /** With tool search on, this server's tools are always given to the model (never deferred). */
  always_loaded: boolean.default(false),
  // Codex keys accepted without being used (no warning for them).
  default_tools_approval_mode: z.unknown().optional(),
  tools: z.unknown().optional(),
  name: z.unknown().optional(),
};

export const stdioTransportSchema = z.object(stdioShape).transform((t) => ({
  type: 'stdio' as const,
  command: t.command,
  args: t.args ?? [],
  env: t.env ?? null,
  env_vars: t.env_vars ?? [],
  cwd: t.cwd ?? null,
}));

export const httpTransportSchema = z.object(httpShape).transform((t) => ({
  type: t.transport ?? 'streamable_http',
  url: t.url,
  bearer_token_env_var: t.bearer_token_env_var ?? null,
  http_headers: t.http_headers ?? null,
  env_http_headers: t.env_http_headers ?? null,
}));

export const serverSettingsSchema = z.preprocess(
  withoutShadowedNames,
  z.object(settingsShape).transform((s) => ({
    enabled: s.enabled,
    required: s.required,
    /** Seconds; null means the default (30 s). */
    startup_timeout_sec: s.startup_timeout_sec ?? (s.startup_timeout_ms === undefined ? null : s.startup_timeout_ms / 1000),
    /** Seconds; null means the default (300 s). */
    tool_timeout_sec: s.tool_timeout_sec ?? null,
    /** Seconds with nothing running after which the server is stopped (its next use starts it again); 0: never; null: the host's default (stopAfterIdleMs). */
    stop_after_idle_sec: s.stop_after_idle_sec ?? null,
    enabled_tools: s.enabled_tools ?? null,
    disabled_tools: s.disabled_tools ?? null,
    startup_mode: s.startup_mode,
    environment: s.environment ?? s.environment_id ?? s.experimental_environment ?? null,
    oauth: s.oauth ?? null,
    oauth_resource: s.oauth_resource ?? null,
    identity: s.identity ?? ('operator' as const),
    token_exchange: s.token_exchange ?? null,
    scopes: s.scopes ?? null,
    supports_parallel_tool_calls: s.supports_parallel_tool_calls,
    always_loaded: s.always_loaded,
  })),
);

/** Keys only a stdio server may have, and keys only an HTTP server may have, in the order the first one present is named. */
export const STDIO_ONLY_KEYS: readonly string[] = Object.keys(stdioShape);
export const HTTP_ONLY_KEYS: readonly string[] = [
  // Codex's keys first, then switchboard's own `transport`.
  ...Object.keys(httpShape).filter((k) => k !== 'transport'),
  ...Object.keys(httpOnlySettingsShape),
  'transport',
];
export const KNOWN_SERVER_KEYS: ReadonlySet<string> = new Set([...STDIO_ONLY_KEYS, ...HTTP_ONLY_KEYS, ...Object.keys(settingsShape)]);

export type StdioTransportConfig = z.output<typeof stdioTransportSchema>;
export type HttpTransportConfig = z.output<typeof httpTransportSchema>;
export type McpTransportConfig = StdioTransportConfig | HttpTransportConfig;
export type EnvVarSpec = StdioTransportConfig['env_vars'][number];
export type EnvVarSource = EnvVarSpec['source'];
export type McpServerSettings = z.output<typeof serverSettingsSchema>;
export type OAuthConfig = NonNullable<McpServerSettings['oauth']>;
export type OAuthIdpConfig = NonNullable<OAuthConfig['idp']>;
export type StartupMode = McpServerSettings['startup_mode'];
export type TokenExchangeConfig = NonNullable<McpServerSettings['token_exchange']>;
export type UpstreamIdentityMode = McpServerSettings['identity'];
