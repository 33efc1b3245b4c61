// The front door of an HTTP MCP endpoint: where it listens, which Host and Origin values it answers
// (DNS-rebinding protection), and the bearer token, compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import os from 'node:os';
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { SwitchboardError } from '../../util/index.js';

export interface ListenAddress {
  host: string;
  port: number;
}

/** `host:port`, `[v6]:port`, or a bare `:port` / `port` (host 127.0.0.1); port 0 picks a free one. */
export function parseListenAddress(value: string): ListenAddress {
  const bare = /^:?(\d+)$/.exec(value);
  const m = bare ? null : (/^\[([^\]]+)\]:(\d+)$/.exec(value) ?? /^([^:[\]]+):(\d+)$/.exec(value));
  const port = Number(bare ? bare[1] : m?.[2]);
  if ((!bare && !m) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SwitchboardError('invalid_listen', `expected host:port (e.g. 127.0.0.1:8765 or [::1]:0), got ${JSON.stringify(value)}`);
  }
  return { host: bare ? '127.0.0.1' : m![1]!, port };
}

/** 127.0.0.0/8, ::1 or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** A hostname as the Host/Origin allowlists spell it (IPv6 in brackets). */
export function allowlistName(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host.toLowerCase();
}

export function httpUrl(host: string, port: number, pathname: string): string {
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}${pathname}`;
}

/**
 * Hostnames a request may name in Host (and Origin): the loopback names for a loopback bind; the
 * bound address for a specific one; every local address and the machine name for a wildcard bind;
 * plus whatever the operator allowed explicitly (a DNS name in front of the server).
 */
export function allowedHostnames(bindHost: string, extra: readonly string[] = []): string[] {
  const names = new Set<string>(['localhost', '127.0.0.1', '[::1]']);
  if (isWildcardHost(bindHost)) {
    for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) names.add(allowlistName(a.address));
    names.add(os.hostname().toLowerCase());
  } else if (!isLoopbackHost(bindHost)) {
    names.add(allowlistName(bindHost));
  }
  for (const e of extra) names.add(allowlistName(e));
  return [...names];
}

export type GateRefusal = { status: 403 | 401; message: string };

/** Host must be allowed; Origin, when a browser sends one, must be too. */
export function checkHostAndOrigin(host: string | undefined, origin: string | undefined, allowed: readonly string[]): GateRefusal | null {
  const h = validateHostHeader(host, [...allowed]);
  if (!h.ok) return { status: 403, message: `Forbidden: ${h.message}` };
  const o = validateOriginHeader(origin, [...allowed]);
  if (!o.ok) return { status: 403, message: `Forbidden: ${o.message}` };
  return null;
}

/**
 * True when the Authorization header is exactly `Bearer <token>`. Both sides are hashed first, so
 * the comparison takes the same time whatever the presented value's length or content.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(token, 'utf8').digest();
  return timingSafeEqual(a, b) && presented.length > 0;
}

export const MIN_TOKEN_LENGTH = 16;

/** Refuse configurations that would expose the endpoint without authentication. */
export function checkAuthConfig(listen: ListenAddress, token: string | null, insecureNoAuth: boolean): void {
  if (token !== null) {
    if (insecureNoAuth) throw new SwitchboardError('http_auth_config', '--insecure-no-auth cannot be combined with a token; drop one of them');
    if (token.length < MIN_TOKEN_LENGTH) {
      throw new SwitchboardError('http_auth_config', `the token is too short (${token.length} characters); use at least ${MIN_TOKEN_LENGTH}, e.g. \`head -c 32 /dev/urandom | base64\``);
    }
    return;
  }
  if (!insecureNoAuth) {
    throw new SwitchboardError(
      'http_auth_config',
      'no token: pass --token-file FILE or set SWITCHBOARD_MCP_TOKEN (clients send "Authorization: Bearer <token>"); on a loopback address --insecure-no-auth runs without one',
    );
  }
  if (!isLoopbackHost(listen.host)) {
    throw new SwitchboardError('http_auth_config', `--insecure-no-auth is only allowed on a loopback address, not ${listen.host}; use a token`);
  }
}
