// The shared Logger core: text lines, level filtering, child fields, the redaction of secrets and
// the --verbose mirror to stderr, and the stderr logger of library users.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, redactFields, stderrLogger, teeLogger, type Logger } from './logger.js';

function capture(level?: 'debug' | 'info' | 'warn' | 'error'): { lines: string[]; logger: Logger } {
  const lines: string[] = [];
  return { lines, logger: createLogger((l) => lines.push(l), level ? { level } : {}) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createLogger', () => {
  it('writes `<ISO time> <LEVEL> <msg> <fields>` and leaves the tail off without fields', () => {
    const { lines, logger } = capture();
    logger.info('hello', { server: 'docs', n: 1 });
    logger.error('plain');
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO hello \{"server":"docs","n":1\}$/);
    expect(lines[1]).toMatch(/Z ERROR plain$/);
  });

  it('drops records below its level (info by default)', () => {
    const byDefault = capture();
    byDefault.logger.debug('hidden');
    byDefault.logger.warn('shown');
    expect(byDefault.lines.map((l) => l.split(' ')[1])).toEqual(['WARN']);
    const debug = capture('debug');
    debug.logger.debug('shown');
    expect(debug.lines).toHaveLength(1);
    const error = capture('error');
    error.logger.warn('hidden');
    expect(error.lines).toEqual([]);
  });

  it('child loggers add their fields to every record; a call’s own fields win', () => {
    const { lines, logger } = capture();
    const child = logger.child({ server: 'a', session: 1 }).child({ session: 2 });
    child.info('x', { extra: true });
    child.info('y', { server: 'b' });
    expect(lines[0]).toContain('x {"server":"a","session":2,"extra":true}');
    expect(lines[1]).toContain('y {"server":"b","session":2}');
  });

  it('never writes the value of a secret-looking key, in fields, child fields or nested objects', () => {
    const { lines, logger } = capture();
    const secrets = ['tok-1', 'sec-2', 'pw-3', 'Bearer auth-4', 'key-5', 'key-6', 'c-7', 'nested-8', 'bound-9'];
    logger.child({ refresh_token: 'bound-9' }).warn('request', {
      access_token: 'tok-1',
      clientSecret: 'sec-2',
      PASSWORD: 'pw-3',
      Authorization: 'Bearer auth-4',
      api_key: 'key-5',
      'x-api-key': 'key-6',
      cookie: 'c-7',
      headers: { 'X-Api-Key': 'nested-8', accept: 'application/json' },
      server: 'docs',
    });
    for (const s of secrets) expect(lines[0]).not.toContain(s);
    expect(lines[0]).toContain('"server":"docs"');
    expect(lines[0]).toContain('"accept":"application/json"');
    expect(lines[0]).toContain('"access_token":"*****"');
    expect(lines[0]).toContain('"headers":{"X-Api-Key":"*****"');
  });
});

describe('redactFields', () => {
  it('masks by key name only, leaves other values as they are and does not touch its input', () => {
    const input = { token: 't', list: [1, 2], when: null, deep: { a: { b: { password: 'p' } } } };
    expect(redactFields(input)).toEqual({ token: '*****', list: [1, 2], when: null, deep: { a: { b: { password: '*****' } } } });
    expect(input.token).toBe('t');
  });
});

describe('teeLogger', () => {
  it('writes to the logger it wraps and mirrors every level, debug included, to stderr', () => {
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true));
    const { lines, logger } = capture('info');
    const tee = teeLogger(logger).child({ server: 'a' });
    tee.debug('low', { token: 'never' });
    tee.info('high');
    expect(lines).toHaveLength(1); // the wrapped logger keeps its own level
    expect(stderr).toHaveLength(2);
    expect(stderr[0]).toMatch(/ DEBUG low \{"server":"a","token":"\*\*\*\*\*"\}\n$/);
    expect(stderr.join('')).not.toContain('never');
  });
});

describe('stderrLogger', () => {
  it('writes text lines to stderr from its level up, secrets masked', () => {
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));
    const logger = stderrLogger({ level: 'warn' });
    logger.info('quiet');
    logger.warn('MCP server failed', { server: 'a', api_key: 'k' });
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/ WARN MCP server failed \{"server":"a","api_key":"\*\*\*\*\*"\}\n$/);
  });
});
