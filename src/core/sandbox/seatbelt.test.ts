import { describe, expect, it } from 'vitest';
import { SeatbeltSandbox, seatbeltProfile } from './seatbelt.js';
import { workspaceOptions, WORKSPACE_WRITE } from '../../../test/support/sandbox-policies.js';

const options = workspaceOptions('/Users/me/repo', '/private/tmp');
const ws = WORKSPACE_WRITE;

describe('seatbeltProfile', () => {
  it('read-only: deny by default, read everywhere, no write rule, no network', () => {
    const { profile, params } = seatbeltProfile({ type: 'read-only' }, options);
    expect(profile.startsWith('(version 1)\n(deny default)\n')).toBe(true);
    expect(profile).toContain('(allow file-read*)');
    expect(profile).toContain('(allow process-exec)');
    expect(profile).not.toContain('(allow file-write*\n');
    expect(profile).not.toContain('network-outbound');
    expect(params).toEqual({});
  });

  it('workspace-write: each root is a parameter; .git is carved out with require-not', () => {
    const { profile, params } = seatbeltProfile(ws, options);
    expect(params).toEqual({
      WRITABLE_ROOT_0: '/Users/me/repo',
      WRITABLE_ROOT_0_RO_0: '/Users/me/repo/.git',
      WRITABLE_ROOT_1: '/private/tmp',
    });
    expect(profile).toContain(
      '(allow file-write*\n' +
        '  (require-all (subpath (param "WRITABLE_ROOT_0")) (require-not (subpath (param "WRITABLE_ROOT_0_RO_0"))))\n' +
        '  (subpath (param "WRITABLE_ROOT_1")))',
    );
    expect(profile).not.toContain('network-outbound');
  });

  it('workspace-write with network access allows sockets', () => {
    const { profile } = seatbeltProfile({ ...ws, network_access: true }, { ...options, networkAccess: true });
    expect(profile).toContain('(allow network-outbound)');
    expect(profile).toContain('(allow network-inbound)');
    expect(profile).toContain('(allow system-socket)');
  });

  it('wrap runs sandbox-exec with the profile and -D parameters', () => {
    const argv = new SeatbeltSandbox().wrap(['ls'], ws, options);
    expect(argv.slice(0, 2)).toEqual(['/usr/bin/sandbox-exec', '-p']);
    expect(argv.slice(3)).toEqual([
      '-DWRITABLE_ROOT_0=/Users/me/repo',
      '-DWRITABLE_ROOT_0_RO_0=/Users/me/repo/.git',
      '-DWRITABLE_ROOT_1=/private/tmp',
      '--',
      'ls',
    ]);
    expect(new SeatbeltSandbox().wrap(['ls'], { type: 'danger-full-access' }, options)).toEqual(['ls']);
  });
});
