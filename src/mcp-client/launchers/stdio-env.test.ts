import { describe, expect, it } from 'vitest';
import { McpClientError } from '../errors.js';
import { addCompileCache, createLocalServerEnv } from './stdio-env.js';

describe('createLocalServerEnv', () => {
  const parent = { HOME: '/home/u', PATH: '/bin', OPENAI_API_KEY: 'sk-secret', MY_VAR: 'mine', TZ: 'UTC' };

  it('keeps only the allow list, then env_vars, then env literals', () => {
    const env = createLocalServerEnv(parent, [{ name: 'MY_VAR', source: 'local' }, { name: 'ABSENT', source: 'local' }], { PATH: '/custom', EXTRA: '1' });
    expect(env).toEqual({ HOME: '/home/u', PATH: '/custom', TZ: 'UTC', MY_VAR: 'mine', EXTRA: '1' });
    expect(env).not.toHaveProperty('OPENAI_API_KEY');
    expect(env).not.toHaveProperty('ABSENT');
  });

  it('passes a secret only when it is named', () => {
    expect(createLocalServerEnv(parent, [], null)).not.toHaveProperty('OPENAI_API_KEY');
    expect(createLocalServerEnv(parent, [{ name: 'OPENAI_API_KEY', source: 'local' }], null).OPENAI_API_KEY).toBe('sk-secret');
  });

  it('rejects a remote env_vars source with Codex text', () => {
    let caught: unknown;
    try {
      createLocalServerEnv(parent, [{ name: 'TOKEN', source: 'remote' }], null);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(McpClientError);
    expect((caught as McpClientError).code).toBe('config');
    expect((caught as Error).message).toBe('env_vars entry `TOKEN` uses source `remote`, which requires remote MCP stdio');
  });
});

describe('addCompileCache', () => {
  it('points NODE_COMPILE_CACHE at the directory when nobody chose one', () => {
    const env: Record<string, string> = { PATH: '/bin' };
    expect(addCompileCache(env, { PATH: '/bin' }, '/home/u/.switchboard/cache/node-compile')).toBe(true);
    expect(env).toEqual({ PATH: '/bin', NODE_COMPILE_CACHE: '/home/u/.switchboard/cache/node-compile' });
  });

  it('leaves the environment alone when off, or when the user set or disabled the cache', () => {
    const cases: [Record<string, string>, Record<string, string | undefined>, string | undefined][] = [
      [{}, {}, undefined],
      [{ NODE_COMPILE_CACHE: '/mine' }, {}, '/dir'],
      [{}, { NODE_COMPILE_CACHE: '/mine' }, '/dir'],
      [{ NODE_DISABLE_COMPILE_CACHE: '1' }, {}, '/dir'],
      [{}, { NODE_DISABLE_COMPILE_CACHE: '1' }, '/dir'],
    ];
    for (const [env, parent, dir] of cases) {
      const before = { ...env };
      expect(addCompileCache(env, parent, dir)).toBe(false);
      expect(env).toEqual(before);
    }
  });
});
