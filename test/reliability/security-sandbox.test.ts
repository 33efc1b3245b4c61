// Security: the sandboxed shell (bubblewrap) cannot write outside its writable roots — not directly,
// not through `..`, a symlink, a hard link or /proc/self/root, not into .git — and cannot reach the
// network (a server listening on the host's loopback, IPv4 or IPv6). Local IPC over Unix sockets stays
// possible, as in Codex. Skipped, saying why, where bubblewrap cannot run; CI installs it.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxPolicy } from '../../src/protocol/index.js';
import { BwrapSandbox, createShellTool } from '../../src/core/index.js';
import { RecordingContext } from '../support/recording-context.js';
import { removeAll, tempDir } from '../support/temp.js';

const bwrap = new BwrapSandbox();

const POLICY: SandboxPolicy = { type: 'workspace-write', writable_roots: [], network_access: false, exclude_slash_tmp: true, exclude_tmpdir_env_var: true };
const dirs: string[] = [];
afterEach(() => removeAll(dirs));

const servers: http.Server[] = [];
const urls: Record<'v4' | 'v6', string> = { v4: '', v6: '' };
beforeAll(async () => {
  for (const [family, host] of [['v4', '127.0.0.1'], ['v6', '::1']] as const) {
    const server = http.createServer((_req, res) => res.end('pong'));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
    servers.push(server);
    urls[family] = `http://${family === 'v6' ? '[::1]' : '127.0.0.1'}:${(server.address() as AddressInfo).port}/`;
  }
});
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

async function workspace() {
  const root = await tempDir('sb-sandbox-sec-');
  dirs.push(root);
  const cwd = path.join(root, 'work');
  const outside = path.join(root, 'outside');
  await mkdir(path.join(cwd, '.git'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'original\n');
  return { cwd, outside };
}

async function sh(script: string, cwd: string, policy: SandboxPolicy = POLICY) {
  const ctx = new RecordingContext({ cwd, approvalPolicy: 'never', sandboxPolicy: policy });
  const result = await createShellTool({ sandbox: bwrap }).run({ command: ['bash', '-c', script], timeout_ms: 60_000 }, ctx);
  return { result, end: ctx.of('exec_command_end')[0]! };
}

const fetchScript = (url: string) =>
  `${JSON.stringify(process.execPath)} -e ${JSON.stringify(`fetch(${JSON.stringify(url)}).then(async r => console.log('BODY', await r.text()), e => { console.log('NETERR', e.cause?.code ?? e.message); process.exit(7); })`)}`;

describe('security: sandboxed shell', { tags: ['bubblewrap'], timeout: 120_000 }, () => {
  it('writes inside the workspace, and nowhere else by any route', async () => {
    const { cwd, outside } = await workspace();
    expect((await sh('echo ok > inside.txt', cwd)).result.success).toBe(true);
    expect(await readFile(path.join(cwd, 'inside.txt'), 'utf8')).toBe('ok\n');
    const attempts = {
      direct: `echo pwned > ${outside}/secret.txt`,
      'new file': `echo pwned > ${outside}/new.txt`,
      dotdot: 'echo pwned > ../outside/secret.txt',
      symlink: `ln -s ${outside} link && echo pwned > link/secret.txt`,
      'hard link': `ln ${outside}/secret.txt hard && echo pwned > hard`,
      'proc root': `echo pwned > /proc/self/root${outside}/secret.txt`,
      '.git': 'echo pwned > .git/config',
      'mv out': `echo pwned > moved && mv moved ${outside}/moved`,
      'home': 'echo pwned > "$HOME/.sb-sandbox-probe"',
    };
    for (const [how, script] of Object.entries(attempts)) {
      const { result } = await sh(script, cwd);
      expect(result.success, `${how}: ${result.output}`).toBe(false);
    }
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('original\n');
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(path.join(outside, 'moved'))).toBe(false);
    expect(existsSync(path.join(cwd, '.git', 'config'))).toBe(false);
  });

  it('read-only: not even the workspace is writable', async () => {
    const { cwd } = await workspace();
    const { result } = await sh('echo x > inside.txt', cwd, { type: 'read-only' });
    expect(result.success).toBe(false);
    expect(existsSync(path.join(cwd, 'inside.txt'))).toBe(false);
  });

  it('cannot reach a server on the host loopback, over IPv4 or IPv6; with network_access it can (the probe works)', async () => {
    const { cwd } = await workspace();
    for (const url of Object.values(urls)) {
      const { result, end } = await sh(fetchScript(url), cwd);
      expect(result.success, url).toBe(false);
      expect(end.stdout, url).toMatch(/^NETERR (ECONNREFUSED|ENETUNREACH|EADDRNOTAVAIL)/);
    }
    const open = await sh(fetchScript(urls.v4), cwd, { ...POLICY, network_access: true });
    expect(open.end.stdout).toBe('BODY pong\n');
  });
});
