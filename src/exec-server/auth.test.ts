import { describe, expect, it } from 'vitest';
import { bearerMatches, formatWsUrl, hostAllowed, isLoopbackHost, originAllowed, parseListen } from './auth.js';
import { checkAuthConfig } from './exec-server.js';

describe('bearerMatches', () => {
  it('accepts exactly "Bearer <token>"', () => {
    expect(bearerMatches('Bearer s3cret', 's3cret')).toBe(true);
    expect(bearerMatches('Bearer s3cret2', 's3cret')).toBe(false);
    expect(bearerMatches('Bearer s3cre', 's3cret')).toBe(false);
    expect(bearerMatches('bearer s3cret', 's3cret')).toBe(false);
    expect(bearerMatches('s3cret', 's3cret')).toBe(false);
    expect(bearerMatches(undefined, 's3cret')).toBe(false);
    expect(bearerMatches('Bearer ', '')).toBe(false);
  });
});

describe('listen addresses', () => {
  it('parses host:port and [v6]:port', () => {
    expect(parseListen('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseListen('[::1]:7300')).toEqual({ host: '::1', port: 7300 });
    expect(parseListen('localhost:80')).toEqual({ host: 'localhost', port: 80 });
    for (const bad of ['127.0.0.1', ':80', '1.2.3.4:70000', '::1:80', 'host:port']) expect(() => parseListen(bad)).toThrow('--listen must be host:port');
  });

  it('knows loopback from everything else', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', 'example.com', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });

  it('formats ws URLs', () => {
    expect(formatWsUrl('::1', 80, false)).toBe('ws://[::1]:80');
    expect(formatWsUrl('127.0.0.1', 443, true)).toBe('wss://127.0.0.1:443');
  });
});

describe('checkAuthConfig', () => {
  const listen = (host: string) => ({ host, port: 0 });
  it('needs a token unless explicitly insecure on loopback', () => {
    expect(() => checkAuthConfig({ listen: listen('0.0.0.0'), token: 'tok' })).not.toThrow();
    expect(() => checkAuthConfig({ listen: listen('127.0.0.1'), token: null })).toThrow('no token configured');
    expect(() => checkAuthConfig({ listen: listen('127.0.0.1'), token: null, insecureNoAuth: true })).not.toThrow();
    expect(() => checkAuthConfig({ listen: listen('0.0.0.0'), token: null, insecureNoAuth: true })).toThrow('only allowed on a loopback address');
    expect(() => checkAuthConfig({ listen: listen('127.0.0.1'), token: '  ' })).toThrow('token is empty');
  });
});

describe('browser checks', () => {
  const loopback = { host: '127.0.0.1', port: 7300 };
  it('on a loopback listener, accepts loopback Host names only (DNS rebinding)', () => {
    for (const host of ['127.0.0.1:7300', 'localhost:7300', 'LOCALHOST', '[::1]:7300', '127.0.0.2', undefined]) expect(hostAllowed(host, loopback), String(host)).toBe(true);
    for (const host of ['evil.example', 'evil.example:7300', '10.0.0.1:7300', '127.0.0.1.evil.example', '[::2]:7300', '']) expect(hostAllowed(host, loopback), host).toBe(false);
    expect(hostAllowed('exec.example.org:7300', { host: '0.0.0.0', port: 7300 })).toBe(true);
  });

  it('accepts no Origin or its own, and refuses every other (cross-site WebSocket hijacking)', () => {
    expect(originAllowed(undefined, '127.0.0.1:7300')).toBe(true);
    expect(originAllowed('http://127.0.0.1:7300', '127.0.0.1:7300')).toBe(true);
    for (const origin of ['https://evil.example', 'http://127.0.0.1:7301', 'null', 'file://', 'chrome-extension://abc', 'http://127.0.0.1.evil.example:7300']) {
      expect(originAllowed(origin, '127.0.0.1:7300'), origin).toBe(false);
    }
    expect(originAllowed('http://127.0.0.1:7300', undefined)).toBe(false);
  });
});
