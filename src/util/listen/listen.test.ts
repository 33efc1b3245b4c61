// The one table of entry checks. The exec-server (WebSocket upgrade), `mcp-server --http` and
// `serve --http` (both through mcp-host's HTTP host) all run exactly these functions.
import { describe, expect, it } from 'vitest';
import { allowedHostnames, bearerMatches, createHostOriginCheck, isLoopbackHost, listenUrl, parseListenAddress } from './index.js';

describe('listen addresses (--listen and --http)', () => {
  const accepted: [string, { host: string; port: number }][] = [
    ['127.0.0.1:0', { host: '127.0.0.1', port: 0 }],
    ['127.0.0.1:8765', { host: '127.0.0.1', port: 8765 }],
    ['[::1]:7300', { host: '::1', port: 7300 }],
    ['[::1]:0', { host: '::1', port: 0 }],
    ['localhost:80', { host: 'localhost', port: 80 }],
    ['localhost:1', { host: 'localhost', port: 1 }],
    ['0.0.0.0:7300', { host: '0.0.0.0', port: 7300 }],
    // A bare port binds loopback, never every interface.
    [':8765', { host: '127.0.0.1', port: 8765 }],
    [':9000', { host: '127.0.0.1', port: 9000 }],
    ['9000', { host: '127.0.0.1', port: 9000 }],
  ];
  it.each(accepted)('%s', (value, address) => expect(parseListenAddress(value)).toEqual(address));

  it.each(['127.0.0.1', '1.2.3.4:70000', 'h:70000', '::1:80', 'host:port', 'nope', '', ':', '[::1]', '70000'])('refuses %j', (value) => {
    expect(() => parseListenAddress(value)).toThrow(/expected host:port, \[v6\]:port or :port/);
  });
});

describe('loopback', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', 'localhost', 'LOCALHOST'])('%s is loopback', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each(['0.0.0.0', '::', '10.0.0.1', 'example.com', '128.0.0.1', '::2', 'fe80::1%eth0', '::ffff:127.0.0.1', ''])('%s is not', (host) => expect(isLoopbackHost(host)).toBe(false));
});

describe('listener URLs', () => {
  it.each<[Parameters<typeof listenUrl>, string]>([
    [['ws', '::1', 80], 'ws://[::1]:80'],
    [['wss', '127.0.0.1', 443], 'wss://127.0.0.1:443'],
    [['http', '127.0.0.1', 8765, '/mcp'], 'http://127.0.0.1:8765/mcp'],
    [['http', '::1', 0, '/mcp'], 'http://[::1]:0/mcp'],
  ])('%j', (args, url) => expect(listenUrl(...args)).toBe(url));
});

describe('bearer tokens', () => {
  const TOKEN = 'a-token-of-sixteen+';
  it.each<[string | undefined, string, boolean]>([
    [`Bearer ${TOKEN}`, TOKEN, true],
    ['Bearer s3cret', 's3cret', true],
    [`Bearer ${TOKEN}x`, TOKEN, false],
    ['Bearer s3cre', 's3cret', false],
    ['bearer s3cret', 's3cret', false],
    [TOKEN, TOKEN, false],
    [`Basic ${TOKEN}`, TOKEN, false],
    [undefined, TOKEN, false],
    ['Bearer ', TOKEN, false],
    ['Bearer ', '', false],
  ])('%j against %j: %s', (header, token, ok) => expect(bearerMatches(header, token)).toBe(ok));
});

describe('Host and Origin (DNS rebinding, cross-site requests and WebSocket hijacking)', () => {
  // The listener configurations: `exec-server --listen 127.0.0.1:7300` and `mcp-server --http
  // 127.0.0.1:7300` (loopback), `serve --http 10.1.2.3:80 --allowed-host agent.example` (a specific
  // address), `exec-server --listen 0.0.0.0:7300` (every interface).
  const loopback = createHostOriginCheck('127.0.0.1');
  const specific = createHostOriginCheck('10.1.2.3', ['agent.example']);
  const wildcard = createHostOriginCheck('0.0.0.0');
  const ok = null;
  const rows: [string, ReturnType<typeof createHostOriginCheck>, string | undefined, string | undefined, RegExp | null][] = [
    // Loopback: Host must be a loopback name, on any port.
    ['own address', loopback, '127.0.0.1:7300', undefined, ok],
    ['localhost', loopback, 'localhost:7300', undefined, ok],
    ['LOCALHOST, no port', loopback, 'LOCALHOST', undefined, ok],
    ['[::1]', loopback, '[::1]:7300', undefined, ok],
    ['another 127/8 address', loopback, '127.0.0.2', undefined, ok],
    ['no Host: not a browser', loopback, undefined, undefined, ok],
    ['rebound name', loopback, 'evil.example', undefined, /^Invalid Host: evil\.example$/],
    ['rebound name with port', loopback, 'evil.example:7300', undefined, /^Invalid Host/],
    ['another address', loopback, '10.0.0.1:7300', undefined, /^Invalid Host/],
    ['look-alike name', loopback, '127.0.0.1.evil.example', undefined, /^Invalid Host/],
    ['another v6 address', loopback, '[::2]:7300', undefined, /^Invalid Host/],
    ['empty Host', loopback, '', undefined, /^Invalid Host header/],
    ['user@ trick', loopback, 'evil.example@localhost', undefined, /^Invalid Host header/],
    // Origin: its own, or a loopback page on any port (a local dev server); nothing else.
    ['own origin', loopback, '127.0.0.1:7300', 'http://127.0.0.1:7300', ok],
    ['own origin via localhost', loopback, 'localhost:7300', 'http://localhost:7300', ok],
    ['loopback page on another port', loopback, 'localhost:1', 'http://localhost:3000', ok],
    ['loopback page, other address', loopback, '127.0.0.1:7300', 'http://127.0.0.1:7301', ok],
    ['loopback page, no Host', loopback, undefined, 'http://127.0.0.1:7300', ok],
    ['empty Origin', loopback, '127.0.0.1:7300', '', ok],
    ['foreign page', loopback, '127.0.0.1:7300', 'https://evil.example', /^Invalid Origin: evil\.example$/],
    ['foreign page (http)', loopback, '127.0.0.1:8765', 'http://evil.example', /^Invalid Origin/],
    ['look-alike page', loopback, '127.0.0.1:7300', 'http://127.0.0.1.evil.example:7300', /^Invalid Origin/],
    ['sandboxed frame', loopback, '127.0.0.1:7300', 'null', /^Invalid Origin header/],
    ['file: page', loopback, '127.0.0.1:7300', 'file://', /^Invalid Origin header/],
    ['extension', loopback, '127.0.0.1:7300', 'chrome-extension://abc', /^Invalid Origin/],
    ['non-web scheme naming localhost', loopback, '127.0.0.1:7300', 'ftp://localhost', /^Invalid Origin/],
    // Off loopback a token is mandatory, so any Host name is fine (a DNS name in front of it).
    ['specific: own address', specific, '10.1.2.3:80', undefined, ok],
    ['specific: --allowed-host', specific, 'agent.example', 'https://agent.example', ok],
    ['specific: any DNS name', specific, 'other.example', undefined, ok],
    ['specific: own origin under a DNS name', specific, 'other.example:80', 'http://other.example', ok],
    ['specific: another port is another origin', specific, 'other.example:80', 'https://other.example', /^Invalid Origin/],
    ['specific: foreign page', specific, '10.1.2.3:80', 'https://other.example', /^Invalid Origin: other\.example$/],
    ['specific: loopback page', specific, '10.1.2.3:80', 'http://localhost:3000', ok],
    ['wildcard: a DNS name', wildcard, 'exec.example.org:7300', undefined, ok],
    ['wildcard: own origin', wildcard, 'exec.example.org:7300', 'https://exec.example.org:7300', ok],
    ['wildcard: foreign page', wildcard, 'exec.example.org:7300', 'https://evil.example', /^Invalid Origin/],
  ];
  it.each(rows)('%s', (_label, check, host, origin, expected) => {
    const refusal = check(host, origin);
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal).toMatch(expected);
  });

  it('allows the local addresses and machine name as Origin on a wildcard bind', () => {
    const names = allowedHostnames('0.0.0.0');
    expect(names).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '[::1]']));
    for (const name of names) expect(wildcard('exec.example.org', `http://${name}:3000`), name).toBeNull();
  });
});
