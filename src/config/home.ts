// Where switchboard keeps its files: $SWITCHBOARD_HOME, default ~/.switchboard.
import os from 'node:os';
import path from 'node:path';

/** switchboard's home folder: `$SWITCHBOARD_HOME`, else `~/.switchboard` (config.toml, tokens, snapshots, sessions, logs). */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.SWITCHBOARD_HOME;
  if (fromEnv && fromEnv.trim() !== '') return path.resolve(fromEnv);
  return path.join(os.homedir(), '.switchboard');
}

export function defaultConfigPath(home: string): string {
  return path.join(home, 'config.toml');
}
