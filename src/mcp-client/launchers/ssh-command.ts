// The ssh launcher's command line and the POSIX sh script it runs remotely: cd, a clean environment,
// the server in its own session (setsid), and a watchdog that kills that group when ssh goes away.
import os from 'node:os';
import path from 'node:path';
import type { EnvironmentConfig } from '../../config/index.js';
import type { RemoteCommand } from './remote-command.js';
import { RemoteSpecError } from './remote-command.js';

export type SshEnvironment = Extract<EnvironmentConfig, { type: 'ssh' }>;

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Quote for a POSIX shell: one single-quoted word, embedded quotes as '\''. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** One preamble line for a value: `\` and newline escaped, decoded remotely with printf %b. */
export function encodePreambleValue(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
}

export interface RemoteScript {
  /** The sh script (names and argv only; no values). */
  script: string;
  /** Written to stdin before any MCP message: one line per sent value, so values never appear in argv. */
  preamble: string;
}

/**
 * Build the remote script. Values of sent variables travel as a stdin preamble rather than on the
 * command line, where any user of either machine could read them in `ps`.
 */
export function buildRemoteScript(cmd: RemoteCommand): RemoteScript {
  const assignments: string[] = [];
  for (const name of cmd.inheritEnv) {
    if (!SHELL_NAME.test(name)) {
      throw new RemoteSpecError(`environment variable ${JSON.stringify(name)} cannot be taken from the remote environment over ssh: not a shell variable name`);
    }
    assignments.push(`\${${name}+"${name}=$${name}"}`);
  }
  const reads: string[] = [];
  const preamble: string[] = [];
  Object.entries(cmd.env).forEach(([name, value], i) => {
    const v = `sb_v${i}`;
    reads.push(`IFS= read -r ${v} || exit 125; ${v}=$(printf '%bx' "$${v}"); ${v}=\${${v}%x}`);
    assignments.push(`${shellQuote(`${name}=`)}"$${v}"`);
    preamble.push(`${encodePreambleValue(value)}\n`);
  });
  const server = ['setsid', 'env', '-i', '--', ...assignments, ...cmd.argv.map(shellQuote)].join(' ');
  const lines = [
    `cd -- ${shellQuote(cmd.cwd)} || exit 126`,
    `command -v setsid >/dev/null 2>&1 || { echo 'switchboard: the remote host needs setsid (util-linux) to run MCP servers over ssh' >&2; exit 127; }`,
    ...reads,
    // An asynchronous list gets /dev/null as stdin; fd 3 carries the real one past that rule.
    `exec 3<&0`,
    `${server} <&3 3<&- &`,
    `pg=$!`,
    `exec 3<&- 0</dev/null`,
    `parent=$PPID`,
    // Without a tty, sshd does not signal the command when the connection ends; it just exits.
    `( while kill -0 "$parent" 2>/dev/null && kill -0 "$pg" 2>/dev/null; do sleep 1; done; kill -TERM -"$pg" 2>/dev/null; sleep 2; kill -KILL -"$pg" 2>/dev/null ) </dev/null >/dev/null 2>&1 &`,
    `w=$!`,
    `trap 'kill -TERM -"$pg" 2>/dev/null' HUP INT TERM`,
    `wait "$pg"; st=$?`,
    `kill "$w" 2>/dev/null; kill -TERM -"$pg" 2>/dev/null`,
    `exit "$st"`,
  ];
  // One line, so login shells that reject newlines inside quotes (csh) still pass it to /bin/sh intact.
  const script = lines.reduce((acc, line) => (acc === '' ? line : `${acc}${acc.endsWith('&') ? ' ' : '; '}${line}`), '');
  return { script, preamble: preamble.join('') };
}

export interface SshArgvOptions {
  /** Extra ssh options placed before the host, e.g. ['-F', file] or ['-o', 'UserKnownHostsFile=...']. */
  extraOptions?: string[];
  home?: string;
}

/** ssh's argv: no tty, no prompts, no forwarding; the script run by /bin/sh whatever the login shell. */
export function buildSshArgv(environment: SshEnvironment, script: string, options: SshArgvOptions = {}): string[] {
  if (environment.host.startsWith('-')) throw new RemoteSpecError(`ssh host ${JSON.stringify(environment.host)} must not start with "-"`);
  const argv = [
    '-T',
    '-o', 'BatchMode=yes',
    '-o', 'ForwardAgent=no',
    '-o', 'ForwardX11=no',
    '-o', 'ClearAllForwardings=yes',
    '-o', 'ServerAliveInterval=15',
    '-o', 'ServerAliveCountMax=3',
  ];
  if (environment.port !== null) argv.push('-p', String(environment.port));
  if (environment.user !== null) argv.push('-l', environment.user);
  if (environment.identity_file !== null) argv.push('-i', expandHome(environment.identity_file, options.home ?? os.homedir()), '-o', 'IdentitiesOnly=yes');
  argv.push(...(options.extraOptions ?? []), '--', environment.host, `exec /bin/sh -c ${shellQuote(script)}`);
  return argv;
}

function expandHome(file: string, home: string): string {
  if (file === '~') return home;
  if (file.startsWith('~/')) return path.join(home, file.slice(2));
  return file;
}
