// Real bubblewrap: what each sandbox mode lets a command do (writes in and out of the workspace,
// /tmp, .git, loopback network to a server on the host), and what happens when the sandbox cannot
// be set up: a clear failure, never an unconfined run.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AskForApproval, SandboxPolicy } from '../../src/protocol/index.js';
import { BwrapSandbox, createShellTool, type Sandbox } from '../../src/core/index.js';
import { RecordingContext, type Answer } from '../support/recording-context.js';
import { removeAll, workAndOutside } from '../support/temp.js';

const bwrap = new BwrapSandbox();

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

let server: http.Server;
let url: string;
beforeAll(async () => {
  server = http.createServer((_req, res) => res.end('pong'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const workspaceWrite = (over: Partial<Extract<SandboxPolicy, { type: 'workspace-write' }>> = {}): SandboxPolicy => ({
  type: 'workspace-write',
  writable_roots: [],
  network_access: false,
  exclude_tmpdir_env_var: false,
  exclude_slash_tmp: false,
  ...over,
});

async function workspace() {
  const { root, cwd, outside } = await workAndOutside(dirs);
  await writeFile(path.join(cwd, 'existing.txt'), 'readable\n');
  return { root, cwd, outside };
}

async function sh(
  script: string,
  cwd: string,
  sandboxPolicy: SandboxPolicy,
  opts: { approvalPolicy?: AskForApproval; answer?: Answer; sandbox?: Sandbox } = {},
) {
  const ctx = new RecordingContext({ cwd, approvalPolicy: opts.approvalPolicy ?? 'never', sandboxPolicy, answer: opts.answer });
  const tool = createShellTool({ sandbox: opts.sandbox ?? bwrap });
  const result = await tool.run({ command: ['bash', '-c', script], timeout_ms: 60_000 }, ctx);
  return { result, ctx, end: ctx.of('exec_command_end')[0]! };
}

/** A node one-liner that prints the HTTP body or the connection error code. */
function fetchScript(): string {
  const js = `fetch(${JSON.stringify(url)}).then(async r => console.log('BODY', await r.text()), e => { console.log('NETERR', e.cause?.code ?? e.message); process.exit(7); })`;
  return `${JSON.stringify(process.execPath)} -e ${JSON.stringify(js)}`;
}

// Generous: each case starts several sandboxes, and the machine may be busy.
describe('bubblewrap sandbox', { tags: ['bubblewrap'], timeout: 120_000 }, () => {
  it('read-only: reading works, a write anywhere fails inside the sandbox', async () => {
    const { cwd } = await workspace();
    const { result, end } = await sh('cat existing.txt && echo data > new.txt', cwd, { type: 'read-only' });
    expect(result.success).toBe(false);
    expect(end.status).toBe('failed');
    expect(end.stdout).toBe('readable\n');
    expect(end.stderr).toContain('Read-only file system');
    expect(result.output).toMatch(/^Exit code: 1\nWall time: [\d.]+ seconds\nOutput:\nreadable\n/);
    expect(existsSync(path.join(cwd, 'new.txt'))).toBe(false);
    const tmp = await sh('echo data > /tmp/sb-read-only-probe-$$', cwd, { type: 'read-only' });
    expect(tmp.result.success).toBe(false);
  });

  it('read-only: the network is off', async () => {
    const { cwd } = await workspace();
    const { result, end } = await sh(fetchScript(), cwd, { type: 'read-only' });
    expect(result.success).toBe(false);
    expect(end.stdout).toContain('NETERR');
  });

  it('workspace-write: cwd and /tmp are writable; outside the roots is not', async () => {
    const { cwd, outside } = await workspace();
    const inside = await sh('echo in > made.txt', cwd, workspaceWrite());
    expect(inside.result.success).toBe(true);
    expect(await readFile(path.join(cwd, 'made.txt'), 'utf8')).toBe('in\n');

    // `outside` lives under /tmp, which is a writable root by default...
    expect((await sh(`echo t > ${outside}/tmp-ok.txt`, cwd, workspaceWrite())).result.success).toBe(true);
    // ...and is not once /tmp and TMPDIR are excluded.
    const denied = await sh(`echo out > ${outside}/nope.txt`, cwd, workspaceWrite({ exclude_slash_tmp: true, exclude_tmpdir_env_var: true }));
    expect(denied.result.success).toBe(false);
    expect(denied.end.stderr).toContain('Read-only file system');
    expect(existsSync(path.join(outside, 'nope.txt'))).toBe(false);
  });

  it('workspace-write: configured writable_roots are writable', async () => {
    const { cwd, outside } = await workspace();
    const policy = workspaceWrite({ exclude_slash_tmp: true, exclude_tmpdir_env_var: true, writable_roots: [outside] });
    expect((await sh(`echo extra > ${outside}/extra.txt`, cwd, policy)).result.success).toBe(true);
    expect(await readFile(path.join(outside, 'extra.txt'), 'utf8')).toBe('extra\n');
  });

  it('workspace-write: .git under a writable root stays read-only', async () => {
    const { cwd } = await workspace();
    await mkdir(path.join(cwd, '.git'));
    const { result } = await sh('touch .git/hooks-evil', cwd, workspaceWrite());
    expect(result.success).toBe(false);
    expect(existsSync(path.join(cwd, '.git/hooks-evil'))).toBe(false);
  });

  it('workspace-write: the network is off; a loopback server on the host is unreachable', async () => {
    const { cwd } = await workspace();
    const { result, end } = await sh(fetchScript(), cwd, workspaceWrite());
    expect(result.success).toBe(false);
    expect(end.stdout).toMatch(/NETERR (ECONNREFUSED|ENETUNREACH)/);
  });

  it('workspace-write with network_access = true reaches the host', async () => {
    const { cwd } = await workspace();
    const { result, end } = await sh(fetchScript(), cwd, workspaceWrite({ network_access: true }));
    expect(end.stdout).toBe('BODY pong\n');
    expect(result.success).toBe(true);
  });

  it('danger-full-access: writing outside the workspace and the network both work', async () => {
    const { cwd, outside } = await workspace();
    const write = await sh(`echo free > ${outside}/free.txt`, cwd, { type: 'danger-full-access' });
    expect(write.result.success).toBe(true);
    expect(await readFile(path.join(outside, 'free.txt'), 'utf8')).toBe('free\n');
    const net = await sh(fetchScript(), cwd, { type: 'danger-full-access' });
    expect(net.end.stdout).toBe('BODY pong\n');
  });

  it('a root caller cannot remount the read-only root from inside', async () => {
    const { cwd } = await workspace();
    const { result } = await sh('mount -o remount,rw / && touch /sb-remount-escape', cwd, { type: 'read-only' });
    expect(result.success).toBe(false);
    expect(existsSync('/sb-remount-escape')).toBe(false);
  });
});

describe('sandbox unavailable', { timeout: 120_000 }, () => {
  it('bwrap missing: the command fails with the install hint and never runs', async () => {
    const { cwd } = await workspace();
    const missing = new BwrapSandbox({ bwrapPath: path.join(cwd, 'no-such-bwrap') });
    const { result, end } = await sh('touch ran.txt', cwd, workspaceWrite(), { sandbox: missing });
    expect(result.success).toBe(false);
    expect(result.output).toContain('apt-get install bubblewrap');
    expect(end.status).toBe('failed');
    expect(existsSync(path.join(cwd, 'ran.txt'))).toBe(false);
  });

  it('bwrap cannot create namespaces: the error names user namespaces and the command never runs', async () => {
    const { root, cwd } = await workspace();
    // A bwrap that fails the way it does on a kernel without user namespaces.
    const stub = path.join(root, 'bwrap');
    await writeFile(stub, '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n');
    await chmod(stub, 0o755);
    const broken = new BwrapSandbox({ bwrapPath: stub });
    const { result } = await sh('touch ran.txt', cwd, workspaceWrite(), { sandbox: broken });
    expect(result.success).toBe(false);
    expect(result.output).toContain('No permissions to creating new namespace');
    expect(result.output).toContain('user namespaces');
    expect(existsSync(path.join(cwd, 'ran.txt'))).toBe(false);
  });

  it('on-failure: the user is asked before running unconfined; denied means not run', async () => {
    const { cwd } = await workspace();
    const missing = new BwrapSandbox({ bwrapPath: path.join(cwd, 'no-such-bwrap') });
    const { result, ctx } = await sh('touch ran.txt', cwd, workspaceWrite(), {
      sandbox: missing,
      approvalPolicy: 'on-failure',
      answer: () => 'denied',
    });
    expect(ctx.approvals).toHaveLength(1);
    expect(ctx.approvals[0]!.reason).toContain('run without sandbox?');
    expect(result.success).toBe(false);
    expect(existsSync(path.join(cwd, 'ran.txt'))).toBe(false);
  });

  it('danger-full-access needs no sandbox at all', async () => {
    const { cwd } = await workspace();
    const missing = new BwrapSandbox({ bwrapPath: path.join(cwd, 'no-such-bwrap') });
    const { result } = await sh('touch ran.txt', cwd, { type: 'danger-full-access' }, { sandbox: missing });
    expect(result.success).toBe(true);
    expect(existsSync(path.join(cwd, 'ran.txt'))).toBe(true);
  });
});

describe('a machine without bubblewrap', () => {
  it('the probe says how to install it, and leaves no timer keeping the process alive', async () => {
    // A child process (the built code) probes a missing bwrap and must exit right after the refusal:
    // a spawn `timeout` used to hold it for 15 s after the failed spawn.
    const built = pathToFileURL(path.resolve('dist/core/index.js')).href;
    const script = `const { BwrapSandbox } = await import(${JSON.stringify(built)});
      try { await new BwrapSandbox({ bwrapPath: '/nonexistent/bwrap' }).ensureAvailable(); } catch (e) { console.log(e.message); }`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 12_000 });
    expect(stdout).toMatch(/bubblewrap \(`\/nonexistent\/bwrap`\) is not installed/);
  });
});
