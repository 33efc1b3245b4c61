// The config layer's error: names the file, line/column and key where known.
import { SwitchboardError } from '../util/index.js';

/** Where a config problem is: the file, the 1-based line and column, and the key path. */
export interface ConfigErrorLocation {
  file?: string;
  line?: number;
  column?: number;
  keyPath?: string[];
  /** The `-c key=value` the problem is in, when it is not in the file. */
  override?: string;
}

/**
 * A config.toml that cannot be used. The message names the file, line and column and the key,
 * e.g. `config.toml:4:7: startup_timeout_sec must be a number (key mcp_servers.docs.startup_timeout_sec)`.
 */
export class ConfigError extends SwitchboardError {
  readonly location: ConfigErrorLocation;
  readonly detail: string;

  constructor(detail: string, location: ConfigErrorLocation = {}, options: { cause?: unknown } = {}) {
    super('config_invalid', formatConfigError(detail, location), options);
    this.name = 'ConfigError';
    this.detail = detail;
    this.location = location;
  }

  /** The same error, with file and position filled in. */
  at(location: ConfigErrorLocation): ConfigError {
    return new ConfigError(this.detail, { ...this.location, ...location }, { cause: this.cause });
  }
}

function formatConfigError(detail: string, loc: ConfigErrorLocation): string {
  let where = loc.override !== undefined ? `-c ${loc.override}` : (loc.file ?? '');
  if (loc.override === undefined && loc.file && loc.line !== undefined) where += `:${loc.line}${loc.column !== undefined ? `:${loc.column}` : ''}`;
  const key = loc.keyPath && loc.keyPath.length > 0 ? ` (key ${loc.keyPath.join('.')})` : '';
  return where ? `${where}: ${detail}${key}` : `${detail}${key}`;
}
