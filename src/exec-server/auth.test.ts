import { describe, expect, it } from 'vitest';
import { bearerMatches, formatWsUrl, isLoopbackHost, parseListen } from './auth.js';
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
