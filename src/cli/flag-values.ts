// Flag values shared by the long-running commands (exec-server, mcp-server, serve): positive integers,
// the listen address, and the bearer token, read from --token-file or an environment variable.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { errorMessage, parseListenAddress, type ListenAddress } from '../util/index.js';
import type { CliContext } from './context.js';
import { UsageError } from './exit-codes.js';

export function positiveInt(flag: string) {
  return wholeNumber(flag, 1, 'a positive integer');
}

/** A whole number of at least 0 (0 meaning "never" or "off", as the flag's help says). */
export function nonNegativeInt(flag: string) {
  return wholeNumber(flag, 0, '0 or a positive integer');
}

function wholeNumber(flag: string, min: number, what: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < min) throw new UsageError(`${flag} must be ${what}, got ${JSON.stringify(value)}`);
    return n;
  };
}

/** `--listen` / `--http`: one parser for every listener, a usage error naming the flag. */
export function listenFlag(flag: string, value: string): ListenAddress {
  try {
    return parseListenAddress(value);
  } catch (err) {
    throw new UsageError(`${flag}: ${errorMessage(err)}`);
  }
}

/** The first line of `tokenFile` (warning when others can read it), else `$envVar`, else null. */
export function readBearerToken(ctx: CliContext, tokenFile: string | undefined, envVar: string): string | null {
  if (tokenFile !== undefined) {
    const file = path.resolve(ctx.cwd, tokenFile);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read --token-file ${file}: ${errorMessage(err)}`);
    }
    const token = (text.split('\n')[0] ?? '').trim();
    if (token === '') throw new UsageError(`--token-file ${file} is empty`);
    if ((statSync(file).mode & 0o077) !== 0) ctx.stderr.write(`warning: ${file} is readable by other users; chmod 600 it\n`);
    return token;
  }
  const fromEnv = ctx.env[envVar]?.trim();
  return fromEnv ? fromEnv : null;
}
