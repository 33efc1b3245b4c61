// Where a listener binds: the one `host:port` parser for every --listen/--http flag, loopback and
// wildcard detection, and the URL a bound listener prints.
import { isIP } from 'node:net';
import { SwitchboardError } from '../errors.js';

export interface ListenAddress {
  host: string;
  port: number;
}

/**
 * `host:port`, `[v6]:port`, or a bare `:port` / `port`, which binds 127.0.0.1 (never every
 * interface by accident). Port 0 picks a free one. The caller names its flag in the message.
 */
export function parseListenAddress(value: string): ListenAddress {
  const bare = /^:?(\d+)$/.exec(value);
  const m = bare ? null : (/^\[([^\]]+)\]:(\d+)$/.exec(value) ?? /^([^:[\]]+):(\d+)$/.exec(value));
  const port = Number(bare ? bare[1] : m?.[2]);
  if ((!bare && !m) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SwitchboardError('invalid_listen', `expected host:port, [v6]:port or :port (e.g. 127.0.0.1:8765 or [::1]:0), got ${JSON.stringify(value)}`);
  }
  return { host: bare ? '127.0.0.1' : m![1]!, port };
}

/** 127.0.0.0/8, ::1 (any spelling, brackets allowed) or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return URL.parse(`http://[${h}]`)?.hostname === '[::1]'; // 0:0:0:0:0:0:0:1 too
  return false;
}

/** Binds every interface. */
export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** `scheme://host:port/path` for a bound address, IPv6 in brackets. */
export function listenUrl(scheme: 'http' | 'https' | 'ws' | 'wss', host: string, port: number, pathname = ''): string {
  return `${scheme}://${isIP(host) === 6 ? `[${host}]` : host}:${port}${pathname}`;
}
