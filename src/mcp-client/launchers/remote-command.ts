// Codex's rules for running a stdio server on another machine: an explicit cwd, valid Unicode,
// and only explicitly named variables (local values sent, remote names resolved over there).
import { SwitchboardError } from '../../util/index.js';
import { DEFAULT_ENV_VARS } from '../defaults.js';
import type { StdioServerSpec } from './launcher.js';

/** What to start remotely, already checked: argv, cwd, values to send, names to inherit there. */
export interface RemoteCommand {
  argv: string[];
  cwd: string;
  /** `env_vars` with source "local" (read here) and then the `env` literals, which win. */
  env: Record<string, string>;
  /** The executor's defaults (PATH, HOME, ...) plus `env_vars` with source "remote". */
  inheritEnv: string[];
}

export class RemoteSpecError extends SwitchboardError {
  constructor(message: string) {
    super('remote_stdio_invalid', message);
    this.name = 'RemoteSpecError';
  }
}

/**
 * A lone surrogate cannot be encoded as UTF-8. Values read from the OS environment are also refused
 * when they hold U+FFFD, which is what Node makes of bytes that were not UTF-8.
 */
function checkUnicode(value: string, label: string, fromOs = false): string {
  if (Buffer.from(value, 'utf8').toString('utf8') !== value || (fromOs && value.includes('\uFFFD'))) throw new RemoteSpecError(`${label} must be valid Unicode for remote MCP stdio`);
  if (value.includes('\0')) throw new RemoteSpecError(`${label} must not contain NUL characters for remote MCP stdio`);
  return value;
}

function checkName(name: string): string {
  checkUnicode(name, 'environment variable name');
  if (name === '' || name.includes('=')) throw new RemoteSpecError(`environment variable name ${JSON.stringify(name)} is not valid for remote MCP stdio`);
  return name;
}

/** Apply the rules to a server spec; `localEnv` is this machine's environment (source "local"). */
export function buildRemoteCommand(spec: StdioServerSpec, localEnv: NodeJS.ProcessEnv): RemoteCommand {
  if (spec.cwd === null || spec.cwd.trim() === '') throw new RemoteSpecError('executor stdio server requires an explicit cwd');
  const argv = [checkUnicode(spec.command, 'command'), ...spec.args.map((a) => checkUnicode(a, 'argument'))];
  const cwd = checkUnicode(spec.cwd, 'cwd');
  const env: Record<string, string> = {};
  const inherit = new Set<string>(DEFAULT_ENV_VARS);
  for (const entry of spec.envVars) {
    const name = checkName(entry.name);
    if (entry.source === 'remote') {
      inherit.add(name);
      continue;
    }
    const value = localEnv[name];
    if (value !== undefined) env[name] = checkUnicode(value, 'environment variable value', true);
  }
  for (const [name, value] of Object.entries(spec.env ?? {})) env[checkName(name)] = checkUnicode(value, 'environment variable value');
  return { argv, cwd, env, inheritEnv: [...inherit] };
}
