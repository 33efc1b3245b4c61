// Where OAuth secrets come from: an environment variable or a file named in config.toml, never the
// config itself. A file holding a long-lived secret (a client secret, a private key) must be
// readable by its owner only; problems are config errors that name the key at fault.
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SwitchboardError, errorMessage } from '../../util/index.js';

/** A config error for one server's OAuth settings (the text names the key). */
export function oauthConfigError(server: string, text: string, cause?: unknown): SwitchboardError {
  return new SwitchboardError('config', `MCP server '${server}': ${text}`, cause === undefined ? {} : { cause });
}

/** The value of `variable`, which must be set and non-empty (the texts of bearer_token_env_var). */
export function secretFromEnv(server: string, variable: string, env: NodeJS.ProcessEnv): string {
  const value = env[variable];
  if (value === undefined) throw new SwitchboardError('config', `Environment variable ${variable} for MCP server '${server}' is not set`);
  if (value.trim() === '') throw new SwitchboardError('config', `Environment variable ${variable} for MCP server '${server}' is empty`);
  return value.trim();
}

/** `~/x` and absolute paths; a relative path would depend on where switchboard happens to run. */
export function configPath(server: string, key: string, file: string): string {
  const expanded = file === '~' ? os.homedir() : file.startsWith('~/') ? path.join(os.homedir(), file.slice(2)) : file;
  if (!path.isAbsolute(expanded)) throw oauthConfigError(server, `${key} must be an absolute path (or start with ~/), got ${JSON.stringify(file)}`);
  return expanded;
}

/** Refuse a secret file that others may read or change (as ssh refuses such a key). */
function checkPrivate(server: string, key: string, file: string): void {
  if (process.platform === 'win32') return;
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch (err) {
    throw oauthConfigError(server, `${key} ${file} cannot be read: ${errorMessage(err)}`, err);
  }
  if ((mode & 0o077) !== 0) {
    throw oauthConfigError(server, `${key} ${file} is accessible by other users (mode ${mode.toString(8).padStart(4, '0')}); run \`chmod 600 ${file}\``);
  }
}

/** A long-lived secret from a file: owner-only permissions, read once, surrounding whitespace dropped. */
export function secretFromFile(server: string, key: string, configured: string): string {
  const file = configPath(server, key, configured);
  checkPrivate(server, key, file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw oauthConfigError(server, `${key} ${file} cannot be read: ${errorMessage(err)}`, err);
  }
  if (text === '') throw oauthConfigError(server, `${key} ${file} is empty`);
  return text;
}

/** A secret named by `<prefix>_env_var` or `<prefix>_file` (at most one of them); undefined when neither is set. */
export function optionalSecret(
  server: string,
  source: { env_var?: string | undefined; file?: string | undefined },
  keys: { env_var: string; file: string },
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (source.env_var !== undefined && source.file !== undefined) throw oauthConfigError(server, `set ${keys.env_var} or ${keys.file}, not both`);
  if (source.env_var !== undefined) return secretFromEnv(server, source.env_var, env);
  if (source.file !== undefined) return secretFromFile(server, keys.file, source.file);
  return undefined;
}

/**
 * A short-lived token the platform (re)writes, read afresh at every use so a rotation is picked up.
 * Such files are managed by the platform (a Kubernetes projected token is often 0644), so their
 * permissions are not checked.
 */
export async function readTokenFile(server: string, key: string, file: string): Promise<string> {
  let text: string;
  try {
    text = (await readFile(file, 'utf8')).trim();
  } catch (err) {
    throw oauthConfigError(server, `${key} ${file} cannot be read: ${errorMessage(err)}`, err);
  }
  if (text === '') throw oauthConfigError(server, `${key} ${file} is empty`);
  return text;
}
