// [environments.<id>]: where a stdio MCP server may run instead of locally (exec-server or ssh), as zod
// schemas: the source of the type and of the validation, with today's texts.
// zod/v3 (inside the zod 4 package): it loads in ~6.5 ms where 'zod' (v4) takes ~40 ms, on every CLI start.
import { z } from 'zod/v3';
import { ConfigError } from './config-error.js';
import { builtOnFirstUse, isObjectTable, nonEmptyString, objectOf, parseTable, wholeNumber } from './schema-fields.js';

/** Keys of each kind of environment, in check order (the first problem is the one reported). */
function execServerSchema() {
  return z
    .object({
      url: nonEmptyString.refine((url) => /^wss?:\/\//.test(url), 'url must start with ws:// or wss://'),
      token_env_var: nonEmptyString.optional(),
    })
    .transform((e) => ({ type: 'exec-server' as const, url: e.url, token_env_var: e.token_env_var ?? null }));
}

function sshSchema() {
  return z
    .object({
      host: nonEmptyString,
      port: wholeNumber(1, 65535, () => 'port must be between 1 and 65535', { booleans: true }).optional(),
      user: nonEmptyString.optional(),
      identity_file: nonEmptyString.optional(),
    })
    .transform((e) => ({ type: 'ssh' as const, host: e.host, user: e.user ?? null, port: e.port ?? null, identity_file: e.identity_file ?? null }));
}

/** An `[environments.<id>]` table: a machine where stdio MCP servers may run (an exec-server or SSH). */
export type EnvironmentConfig = { id: string } & (z.output<ReturnType<typeof execServerSchema>> | z.output<ReturnType<typeof sshSchema>>);

/**
 * The kind of each environment and the key it cannot do without (missing, it is named on the table),
 * and the `type` key's schema; built when a config.toml has an environment (builtOnFirstUse).
 */
const kinds = builtOnFirstUse(() => ({
  'exec-server': { schema: execServerSchema(), needs: 'url', text: 'an exec-server environment needs url = "ws://host:port"' } as const,
  ssh: { schema: sshSchema(), needs: 'host', text: 'an ssh environment needs host = "..."' } as const,
  type: objectOf({ type: nonEmptyString.optional() }),
}));

export function parseEnvironment(id: string, raw: unknown): EnvironmentConfig {
  const where = ['environments', id];
  if (!isObjectTable(raw)) throw new ConfigError('environment must be a table', { keyPath: where });
  // Without `type`, a url makes an exec-server and a host an ssh environment.
  const type = parseTable(kinds().type, raw, where).type ?? (raw.url !== undefined ? 'exec-server' : raw.host !== undefined ? 'ssh' : undefined);
  if (type !== 'exec-server' && type !== 'ssh') {
    throw new ConfigError('environment type must be "exec-server" (with url) or "ssh" (with host)', { keyPath: [...where, 'type'] });
  }
  const kind = kinds()[type];
  if (raw[kind.needs] === undefined) throw new ConfigError(kind.text, { keyPath: where });
  return { id, ...parseTable(kind.schema, raw, where) };
}
