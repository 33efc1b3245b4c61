import { describe, expect, it } from 'vitest';
import { BwrapSandbox, bwrapArgs } from './bwrap.js';
import { workspaceOptions, WORKSPACE_WRITE } from '../../../test/support/sandbox-policies.js';

const options = workspaceOptions('/work/repo', '/tmp');
const ws = WORKSPACE_WRITE;

describe('bwrapArgs', () => {
  it('read-only: read-only root, fresh /dev and /proc, no network, no capabilities, nothing writable', () => {
    expect(bwrapArgs(['ls', '-la'], { type: 'read-only' }, options)).toEqual([
      '--new-session', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev',
      '--unshare-pid', '--unshare-net', '--proc', '/proc', '--cap-drop', 'ALL',
      '--setenv', 'SWITCHBOARD_SANDBOX', 'bwrap', '--setenv', 'SWITCHBOARD_SANDBOX_NETWORK_DISABLED', '1',
      '--', 'ls', '-la',
    ]);
  });

  it('workspace-write: writable binds after the read-only root, .git re-bound read-only after them', () => {
    const args = bwrapArgs(['touch', 'x'], ws, options);
    const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
    expect(at('--ro-bind', '/', '/')).toBeLessThan(at('--bind', '/work/repo', '/work/repo'));
    expect(at('--bind', '/tmp', '/tmp')).toBeGreaterThan(0);
    expect(at('--ro-bind', '/work/repo/.git', '/work/repo/.git')).toBeGreaterThan(at('--bind', '/tmp', '/tmp'));
    expect(args).toContain('--unshare-net');
    expect(args.slice(-3)).toEqual(['--', 'touch', 'x']);
  });

  it('workspace-write with network access keeps the host network', () => {
    const args = bwrapArgs(['curl', 'x'], { ...ws, network_access: true }, { ...options, networkAccess: true });
    expect(args).not.toContain('--unshare-net');
    expect(args).not.toContain('SWITCHBOARD_SANDBOX_NETWORK_DISABLED');
  });

  it('wrap prefixes the executable; danger-full-access is returned unchanged', () => {
    const sandbox = new BwrapSandbox({ bwrapPath: '/usr/bin/bwrap' });
    expect(sandbox.wrap(['ls'], { type: 'read-only' }, options)[0]).toBe('/usr/bin/bwrap');
    expect(sandbox.wrap(['ls'], { type: 'danger-full-access' }, options)).toEqual(['ls']);
  });
});
