// [environments.<id>]: where a stdio MCP server may run instead of locally (exec-server or ssh).
import { ConfigError } from './config-error.js';

/** An `[environments.<id>]` table: a machine where stdio MCP servers may run (an exec-server or SSH). */
export type EnvironmentConfig =
  | { id: string; type: 'exec-server'; url: string; token_env_var: string | null }
  | { id: string; type: 'ssh'; host: string; user: string | null; port: number | null; identity_file: string | null };

type Raw = Record<string, unknown>;

export function parseEnvironment(id: string, raw: unknown): EnvironmentConfig {
  const where = ['environments', id];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('environment must be a table', { keyPath: where });
  const r = raw as Raw;
  const str = (key: string): string | null => {
    const v = r[key];
    if (v === undefined) return null;
    if (typeof v !== 'string' || v === '') throw new ConfigError(`${key} must be a non-empty string`, { keyPath: [...where, key] });
    return v;
  };
  const type = str('type') ?? (r.url !== undefined ? 'exec-server' : r.host !== undefined ? 'ssh' : null);
  if (type === 'exec-server') {
    const url = str('url');
    if (!url) throw new ConfigError('an exec-server environment needs url = "ws://host:port"', { keyPath: where });
    if (!/^wss?:\/\//.test(url)) throw new ConfigError('url must start with ws:// or wss://', { keyPath: [...where, 'url'] });
    return { id, type, url, token_env_var: str('token_env_var') };
  }
  if (type === 'ssh') {
    const host = str('host');
    if (!host) throw new ConfigError('an ssh environment needs host = "..."', { keyPath: where });
    const port = r.port === undefined ? null : Number(r.port);
    if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65535)) {
      throw new ConfigError('port must be between 1 and 65535', { keyPath: [...where, 'port'] });
    }
    return { id, type, host, user: str('user'), port, identity_file: str('identity_file') };
  }
  throw new ConfigError('environment type must be "exec-server" (with url) or "ssh" (with host)', { keyPath: [...where, 'type'] });
}
