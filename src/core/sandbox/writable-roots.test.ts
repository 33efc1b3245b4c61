import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isWritablePath, sandboxOptionsFor } from './writable-roots.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const ws = (over = {}) => ({ type: 'workspace-write' as const, writable_roots: [], network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false, ...over });

describe('sandboxOptionsFor / isWritablePath', () => {
  it('workspace-write: cwd, /tmp, TMPDIR and configured roots; .git protected; missing roots skipped', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'sb-roots-'));
    dirs.push(root);
    const cwd = path.join(root, 'repo');
    const extra = path.join(root, 'extra');
    const tmpdir = path.join(root, 'tmpdir');
    await mkdir(path.join(cwd, '.git'), { recursive: true });
    await mkdir(extra);
    await mkdir(tmpdir);
    const policy = ws({ writable_roots: [extra, path.join(root, 'missing')] });
    const options = sandboxOptionsFor(policy, { cwd, env: { TMPDIR: tmpdir } });
    expect(options.writableRoots.map((r) => r.root)).toEqual([cwd, extra, '/tmp', tmpdir]);
    expect(options.writableRoots[0]!.readOnlySubpaths).toEqual([path.join(cwd, '.git')]);
    expect(isWritablePath(path.join(cwd, 'src/new.ts'), policy, options)).toBe(true);
    expect(isWritablePath(path.join(cwd, '.git/config'), policy, options)).toBe(false);
    expect(isWritablePath('/etc/passwd', policy, options)).toBe(false);

    const excluded = sandboxOptionsFor(ws({ exclude_slash_tmp: true, exclude_tmpdir_env_var: true }), { cwd, env: { TMPDIR: tmpdir } });
    expect(excluded.writableRoots.map((r) => r.root)).toEqual([cwd]);
  });

  it('a symlink inside the workspace pointing outside is judged by its target', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'sb-roots-'));
    dirs.push(root);
    const cwd = path.join(root, 'repo');
    await mkdir(cwd);
    await mkdir(path.join(root, 'elsewhere'));
    await symlink(path.join(root, 'elsewhere'), path.join(cwd, 'link'));
    const policy = ws({ exclude_slash_tmp: true });
    const options = sandboxOptionsFor(policy, { cwd, env: {} });
    expect(isWritablePath(path.join(cwd, 'link/file.txt'), policy, options)).toBe(false);
  });

  it('read-only writes nowhere; danger-full-access writes anywhere', () => {
    const ro = sandboxOptionsFor({ type: 'read-only' }, { cwd: '/' });
    expect(ro).toMatchObject({ writableRoots: [], networkAccess: false });
    expect(isWritablePath('/tmp/x', { type: 'read-only' }, ro)).toBe(false);
    expect(isWritablePath('/etc/x', { type: 'danger-full-access' }, ro)).toBe(true);
  });
});
