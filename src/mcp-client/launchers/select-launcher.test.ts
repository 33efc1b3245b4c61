import { describe, expect, it } from 'vitest';
import type { EnvironmentConfig } from '../../config/index.js';
import type { StdioLauncher } from './launcher.js';
import { selectLauncher, UnknownEnvironmentError } from './select-launcher.js';

const local: StdioLauncher = { kind: 'local', launch: () => Promise.reject(new Error('not used')) };
const environments: Record<string, EnvironmentConfig> = {
  exec: { id: 'exec', type: 'exec-server', url: 'ws://127.0.0.1:1', token_env_var: null },
  box: { id: 'box', type: 'ssh', host: 'box.example', user: null, port: null, identity_file: null },
};

describe('selectLauncher', () => {
  it('picks the launcher named by the server environment', () => {
    expect(selectLauncher({ name: 's', environment: null }, { local, environments })).toBe(local);
    expect(selectLauncher({ name: 's', environment: 'local' }, { local, environments })).toBe(local);
    expect(selectLauncher({ name: 's', environment: 'exec' }, { local, environments }).kind).toBe('exec-server');
    expect(selectLauncher({ name: 's', environment: 'box' }, { local, environments }).kind).toBe('ssh');
  });

  it('names the unknown environment and the defined ones', () => {
    const select = () => selectLauncher({ name: 'docs', environment: 'gpu' }, { local, environments });
    expect(select).toThrow(UnknownEnvironmentError);
    expect(select).toThrow("MCP server 'docs' uses environment 'gpu', which is not defined (defined: exec, box); add an [environments.gpu] table to config.toml");
    expect(() => selectLauncher({ name: 'docs', environment: 'gpu' }, { local, environments: {} })).toThrow('none are defined');
  });
});
