// Turning browsers away: the Host check against DNS rebinding and the Origin check against
// cross-site requests (and WebSocket hijacking), one rule for every listener switchboard opens.
import { isIP } from 'node:net';
import os from 'node:os';
import { isLoopbackHost, isWildcardHost } from './address.js';

/** A hostname as the allowlists spell it: lower case, IPv6 in brackets. */
export function allowlistName(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host.toLowerCase();
}

/**
 * Hostnames a browser Origin may name (and, on a loopback bind, the Host): the loopback names
 * always; the bound address for a specific one; every local address and the machine name for a
 * wildcard bind; plus whatever the operator allowed explicitly (a DNS name in front of the server).
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

// A Host value is a name or an IP literal and an optional port, nothing else (no user@ tricks).
const HOST_VALUE = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(:\d{1,5})?$/i;

/** A request's Host and Origin headers; the answer is the refusal reason, or null to go on. */
export type HostOriginCheck = (host: string | undefined, origin: string | undefined) => string | null;

/**
 * The check for a listener bound to `bindHost`. Host: a browser always sends one, naming the page's
 * site, so a request without Host is no browser's; on a loopback bind Host must be a loopback name
 * or an allowed one (a page on evil.example rebound to 127.0.0.1 still sends `Host: evil.example`);
 * off loopback any name is accepted, since a token is then mandatory and a browser never attaches
 * one by itself. Origin, when present: http(s), and either the listener's own origin (the Host it was
 * reached by) or an allowed hostname on any port; `null` (sandboxed frames, file: pages) is refused.
 */
export function createHostOriginCheck(bindHost: string, extra: readonly string[] = []): HostOriginCheck {
  const allowed = new Set(allowedHostnames(bindHost, extra));
  const loopbackBind = isLoopbackHost(bindHost);
  const check: HostOriginCheck = (host, origin) => {
    let self: URL | null = null;
    if (host !== undefined) {
      self = HOST_VALUE.test(host.trim()) ? URL.parse(`http://${host.trim()}`) : null;
      if (!self) return `Invalid Host header: ${host}`;
      if (loopbackBind && !isLoopbackHost(self.hostname) && !allowed.has(self.hostname)) return `Invalid Host: ${self.hostname}`;
    }
    if (origin === undefined || origin === '') return null;
    const o = URL.parse(origin);
    if (!o || o.hostname === '') return `Invalid Origin header: ${origin}`;
    if (o.protocol !== 'http:' && o.protocol !== 'https:') return `Invalid Origin: ${origin}`;
    // The listener's own origin: Host read with the Origin's scheme, so default ports compare right.
    if (self && URL.parse(`${o.protocol}//${host!.trim()}`)?.host === o.host) return null;
    if (allowed.has(o.hostname)) return null;
    return `Invalid Origin: ${o.hostname}`;
  };
  // A client sends the same Host (and Origin) on every request: the last answer is reused (the
  // check depends on nothing else), sparing a URL parse or two per request.
  let last: { host: string | undefined; origin: string | undefined; answer: string | null } | undefined;
  return (host, origin) => {
    if (last !== undefined && last.host === host && last.origin === origin) return last.answer;
    const answer = check(host, origin);
    last = { host, origin, answer };
    return answer;
  };
}
