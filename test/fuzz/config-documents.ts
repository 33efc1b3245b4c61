// fast-check generators of config.toml documents: structured documents along Codex's schema (right
// types most of the time, anything else sometimes), character-level mutations of them, raw bytes,
// and `-c key=value` overrides.
import fc from 'fast-check';
import { stringify } from 'smol-toml';

const SERVER_KEYS = [
  'command', 'args', 'env', 'env_vars', 'cwd', 'url', 'bearer_token_env_var', 'bearer_token', 'http_headers', 'env_http_headers',
  'oauth', 'oauth_resource', 'scopes', 'transport', 'enabled', 'required', 'startup_timeout_sec', 'startup_timeout_ms',
  'tool_timeout_sec', 'enabled_tools', 'disabled_tools', 'startup_mode', 'environment', 'supports_parallel_tool_calls', 'name',
] as const;
const TOP_KEYS = [
  'model', 'model_provider', 'approval_policy', 'sandbox_mode', 'profile', 'mcp_oauth_credentials_store', 'mcp_oauth_callback_port',
  'mcp_oauth_callback_url', 'mcp_oauth_client_metadata_url', 'mcp_tool_name_max_length', 'base_instructions', 'developer_instructions',
  'model_reasoning_effort', 'notify', 'tui', 'features',
] as const;

const name = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-zA-Z0-9_-]{1,12}$/) },
  { weight: 2, arbitrary: fc.constantFrom('docs', 'gh', 'a-b_c', 'local', 'codex_apps', 'oss', 'openai', '__proto__', 'constructor', 'toString', '') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
);
const str = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom('ws://127.0.0.1:1', 'https://x.test/mcp', 'http://[::1]:0', 'stdio', 'sse', 'streamable_http', 'lazy', 'eager', 'never', 'on-request', 'workspace-write', 'keyring', 'file', 'auto', 'chat', 'responses', 'exec-server', 'ssh', 'remote', 'local'));
const scalar = fc.oneof(
  str,
  fc.integer(),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.double(),
  fc.boolean(),
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
);
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(name, tie('v'), { maxKeys: 4 })),
})).v;

/** Mostly the right type for the key, sometimes anything. */
function serverValue(key: (typeof SERVER_KEYS)[number]): fc.Arbitrary<unknown> {
  const typed = (() => {
    switch (key) {
      case 'args': case 'scopes': case 'enabled_tools': case 'disabled_tools':
        return fc.array(str, { maxLength: 4 });
      case 'env_vars':
        return fc.array(fc.oneof(str, fc.record({ name: str, source: fc.constantFrom('local', 'remote', 'elsewhere') }, { requiredKeys: [] })), { maxLength: 3 });
      case 'env': case 'http_headers': case 'env_http_headers':
        return fc.dictionary(name, str, { maxKeys: 3 });
      case 'oauth':
        return fc.record({ client_id: str, client_secret_env_var: str, grant_type: fc.constantFrom('authorization_code', 'client_credentials', 'implicit') }, { requiredKeys: [] });
      case 'enabled': case 'required': case 'supports_parallel_tool_calls':
        return fc.boolean();
      case 'startup_timeout_sec': case 'tool_timeout_sec': case 'startup_timeout_ms':
        return fc.oneof(fc.double({ min: -10, max: 1e12 }), fc.integer(), fc.constant(Number.NaN), fc.constant(Number.POSITIVE_INFINITY));
      default:
        return str;
    }
  })();
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: value });
}

const someKeys = (keys: readonly (typeof SERVER_KEYS)[number][], max: number) =>
  fc.array(fc.constantFrom(...keys), { maxLength: max }).chain((picked) =>
    fc.tuple(...[...new Set(picked)].map((k) => serverValue(k).map((v) => [k, v] as const))).map((pairs) => Object.fromEntries(pairs)),
  );
const SHARED = ['enabled', 'required', 'startup_timeout_sec', 'tool_timeout_sec', 'enabled_tools', 'disabled_tools', 'startup_mode', 'environment', 'scopes'] as const;
/** A stdio or HTTP server (its transport key present, so validation goes past "invalid transport"), or any keys. */
const server = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(str, someKeys(['args', 'env', 'env_vars', 'cwd', ...SHARED], 4)).map(([command, rest]) => ({ command, ...rest })) },
  { weight: 4, arbitrary: fc.tuple(str, someKeys(['bearer_token_env_var', 'http_headers', 'env_http_headers', 'oauth', 'oauth_resource', 'transport', ...SHARED], 4)).map(([url, rest]) => ({ url, ...rest })) },
  { weight: 1, arbitrary: someKeys(SERVER_KEYS, 8) },
);
const environment = fc.record({ type: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('exec-server', 'ssh') }, { weight: 1, arbitrary: fc.oneof(fc.constant('docker'), str) }), url: str, token_env_var: str, host: str, user: str, port: fc.oneof(fc.integer({ min: -1, max: 70_000 }), str), identity_file: str }, { requiredKeys: [] });
const provider = fc.record({ name: str, base_url: str, env_key: str, wire_api: fc.oneof(fc.constantFrom('chat', 'responses', 'grpc'), str), query_params: fc.oneof(fc.dictionary(name, str), value), http_headers: fc.dictionary(name, str), request_max_retries: fc.oneof(fc.integer(), fc.double()), stream_idle_timeout_ms: value }, { requiredKeys: [] });
const sandbox = fc.record({ writable_roots: fc.oneof(fc.array(str, { maxLength: 3 }), value), network_access: fc.oneof(fc.boolean(), value), exclude_slash_tmp: fc.boolean() }, { requiredKeys: [] });

/** A structured document (as a table): the parts of the schema, in random combinations. */
export const configTable: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      top: fc.array(fc.tuple(fc.constantFrom(...TOP_KEYS), fc.oneof(str, value)), { maxLength: 3 }),
      mcp_servers: fc.dictionary(name, fc.oneof({ weight: 5, arbitrary: server }, { weight: 1, arbitrary: value }), { maxKeys: 4 }),
      environments: fc.dictionary(name, fc.oneof({ weight: 4, arbitrary: environment }, { weight: 1, arbitrary: value }), { maxKeys: 2 }),
      model_providers: fc.dictionary(name, fc.oneof(provider, value), { maxKeys: 2 }),
      profiles: fc.dictionary(name, fc.dictionary(fc.constantFrom(...TOP_KEYS), fc.oneof(str, value), { maxKeys: 3 }), { maxKeys: 2 }),
      sandbox_workspace_write: sandbox,
      mcp_server: fc.record({ codex_events: fc.oneof(fc.boolean(), value) }, { requiredKeys: [] }),
      extra: fc.dictionary(name, value, { maxKeys: 2 }),
    },
    { requiredKeys: [] },
  )
  .map(({ top, extra, ...tables }) => ({ ...Object.fromEntries(top ?? []), ...(extra ?? {}), ...tables }));

/** TOML text for a table; a table smol-toml cannot write (NaN keys, odd dates) falls back to JSON-ish text. */
export function toToml(table: Record<string, unknown>): string {
  try {
    return stringify(table);
  } catch (err) {
    return `# stringify failed: ${String(err).split('\n')[0]}\n${JSON.stringify(table, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`;
  }
}

/** Character-level edits of a valid document: deletions, insertions, duplications, truncation. */
export const mutatedDocument: fc.Arbitrary<string> = fc
  .tuple(configTable.map(toToml), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 8 }), fc.oneof(fc.constantFrom('"', "'", '[', ']', '=', '\n', '.', '#', '\\', '{', '}', ',', '[[', '"""', '\u0000', 'ü'), fc.string({ maxLength: 4 })), fc.constantFrom('insert', 'delete', 'replace', 'duplicate', 'truncate')), { minLength: 1, maxLength: 6 }))
  .map(([text, edits]) => {
    let t = text;
    for (const [at, len, piece, op] of edits) {
      const i = t.length === 0 ? 0 : at % (t.length + 1);
      if (op === 'insert') t = t.slice(0, i) + piece + t.slice(i);
      else if (op === 'delete') t = t.slice(0, i) + t.slice(i + len);
      else if (op === 'replace') t = t.slice(0, i) + piece + t.slice(i + piece.length);
      else if (op === 'duplicate') t = t.slice(0, i) + t.slice(i, i + len * 8) + t.slice(i);
      else t = t.slice(0, i);
    }
    return t;
  });

/** Bytes that are mostly not TOML (and often not UTF-8). */
export const rawBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 512 }),
  fc.string({ unit: 'binary', maxLength: 200 }).map((s) => new TextEncoder().encode(s)),
  fc.constantFrom('[mcp_servers.x]\ncommand = "', '[[mcp_servers]]', 'a = 1\na = 2', '[a]\n[a]', 'x = [1, "a"]', '\ufeffmodel = "x"', 'key = """', "k = '''", 'a.b.c.d.e.f.g.h = 1', '[mcp_servers."weird name".env]\nK = "V"').map((s) => new TextEncoder().encode(s)),
);

/** `-c key=value` arguments, valid and not. */
export const overrideArg: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(fc.constantFrom('model', 'mcp_servers.docs.command', 'mcp_servers.docs.args', 'mcp_servers."a.b".url', 'profile', 'sandbox_mode', 'mcp_oauth_callback_port', 'environments.e.url', 'a..b', '"unterminated', '.', ''), fc.string({ maxLength: 20 })),
    fc.oneof(fc.constantFrom('"x"', '[1,2]', '{a=1}', '30', 'true', 'inf', '"unterminated', '[', '{', 'bare words'), fc.string({ maxLength: 20 })),
    fc.boolean(),
  )
  .map(([key, v, withEq]) => (withEq ? `${key}=${v}` : `${key}${v}`));
