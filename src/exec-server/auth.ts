// The exec-server's front door: bearer-token checks in constant time, Host/Origin checks against
// browsers (cross-site WebSocket hijacking, DNS rebinding), and listen-address parsing.
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { SwitchboardError } from '../util/index.js';

/**
 * True when the Authorization header carries exactly `Bearer <token>`. Both sides are hashed first,
 * so the comparison takes the same time whatever the length or content of the presented token.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(token, 'utf8').digest();
  return timingSafeEqual(a, b) && presented.length > 0;
}

export interface ListenAddress {
  host: string;
  port: number;
}

/** Parse `host:port` or `[v6]:port`; port 0 picks a free port. */
export function parseListen(value: string): ListenAddress {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(value) ?? /^([^:]+):(\d+)$/.exec(value);
  const port = m ? Number(m[2]) : NaN;
  if (!m || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SwitchboardError('invalid_listen', `--listen must be host:port (e.g. 127.0.0.1:0 or [::1]:7000), got ${JSON.stringify(value)}`);
  }
  return { host: m[1]!, port };
}

/** Loopback only: 127.0.0.0/8, ::1, or the name localhost. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/** The host name of a Host header value (`name`, `name:port`, `[v6]:port`), lower-cased. */
function hostName(value: string): string {
  const v = value.trim().toLowerCase();
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
  if (v6) return v6[1]!;
  return v.replace(/:\d+$/, '');
}

/**
 * Whether a request's Host header is acceptable for a listener bound to `listen`. A listener on a
 * loopback address answers only to loopback names: a page on evil.example whose DNS name was
 * rebound to 127.0.0.1 sends `Host: evil.example`. A request without Host cannot come from a browser.
 */
export function hostAllowed(host: string | undefined, listen: ListenAddress): boolean {
  if (host === undefined || !isLoopbackHost(listen.host)) return true;
  return isLoopbackHost(hostName(host));
}

/**
 * Whether a request's Origin header is acceptable. Browsers send Origin with every WebSocket
 * handshake and let any page open one to any address, so a foreign Origin is refused; switchboard's
 * own clients send none. A page served by the listener itself (same host and port) would be allowed.
 */
export function originAllowed(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (host === undefined) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host.toLowerCase() === host.trim().toLowerCase();
  } catch {
    return false; // "null" (sandboxed frames, file: pages) and anything unparsable
  }
}

/** `ws://host:port` for an address, bracketing IPv6 hosts. */
export function formatWsUrl(host: string, port: number, tls: boolean): string {
  const h = isIP(host) === 6 ? `[${host}]` : host;
  return `${tls ? 'wss' : 'ws'}://${h}:${port}`;
}
