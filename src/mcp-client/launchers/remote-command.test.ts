import { describe, expect, it } from 'vitest';
import type { StdioServerSpec } from './launcher.js';
import { buildRemoteCommand } from './remote-command.js';

const base: StdioServerSpec = { serverName: 's', command: 'srv', args: ['--x'], env: null, envVars: [], cwd: '/work' };

describe('buildRemoteCommand', () => {
  it('sends only named values and leaves the executor its defaults and remote names', () => {
    const cmd = buildRemoteCommand(
      {
        ...base,
        env: { LIT: 'literal', SHARED: 'literal-wins' },
        envVars: [
          { name: 'SHARED', source: 'local' },
          { name: 'LOCAL_ONLY', source: 'local' },
          { name: 'ABSENT', source: 'local' },
          { name: 'FROM_REMOTE', source: 'remote' },
        ],
      },
      { SHARED: 'local', LOCAL_ONLY: 'here', OTHER: 'secret', PATH: '/local/bin' },
    );
    expect(cmd.argv).toEqual(['srv', '--x']);
    expect(cmd.cwd).toBe('/work');
    expect(cmd.env).toEqual({ SHARED: 'literal-wins', LOCAL_ONLY: 'here', LIT: 'literal' });
    expect(cmd.inheritEnv).toEqual(expect.arrayContaining(['PATH', 'HOME', 'FROM_REMOTE']));
    expect(cmd.inheritEnv).not.toContain('LOCAL_ONLY');
  });

  it('requires an explicit cwd', () => {
    expect(() => buildRemoteCommand({ ...base, cwd: null }, {})).toThrow('executor stdio server requires an explicit cwd');
  });

  it('rejects what cannot travel as Unicode, with Codex labels', () => {
    expect(() => buildRemoteCommand({ ...base, command: 'a\uD800' }, {})).toThrow('command must be valid Unicode for remote MCP stdio');
    expect(() => buildRemoteCommand({ ...base, args: ['\uDFFF'] }, {})).toThrow('argument must be valid Unicode for remote MCP stdio');
    expect(() => buildRemoteCommand({ ...base, env: { ['K\uD800']: 'v' } }, {})).toThrow('environment variable name must be valid Unicode for remote MCP stdio');
    expect(() => buildRemoteCommand({ ...base, envVars: [{ name: 'X', source: 'local' }] }, { X: 'bytes\uFFFD' })).toThrow(
      'environment variable value must be valid Unicode for remote MCP stdio',
    );
    // A literal U+FFFD from the config is a real character, not a decoding loss.
    expect(buildRemoteCommand({ ...base, env: { X: '\uFFFD' } }, {}).env.X).toBe('\uFFFD');
    expect(() => buildRemoteCommand({ ...base, args: ['a\0b'] }, {})).toThrow('argument must not contain NUL characters');
    expect(() => buildRemoteCommand({ ...base, env: { 'A=B': 'v' } }, {})).toThrow('is not valid for remote MCP stdio');
  });
});
