// Security: files that hold credentials or reveal configuration are private to the user whatever the
// umask — config.toml written by `mcp add`, the OAuth credentials file, startup snapshots, the log —
// and so are the folders switchboard creates for them. Run under umask 000 in real processes.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, REPO } from '../support/cli.js';
import { CHAOS, NODE } from './fault-cases.js';
import { tempDir, removeTree } from '../support/temp.js';

let root: string;
let home: string;
beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
});
beforeEach(async () => {
  root = await tempDir('sb-files-');
  home = path.join(root, 'not', 'yet', 'home'); // switchboard creates it
});
afterEach(() => removeTree(root));

/** Runs `node <args>` under umask 000, so only switchboard's own modes protect what it writes. */
function underUmask0(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'umask 000 && exec "$@"', 'sh', NODE, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: root, SWITCHBOARD_HOME: home, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out }));
  });
}

const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

describe('security: private files', { timeout: 60_000 }, () => {
  it('umask 000 really applies to the child (a file it creates plainly is world-writable)', async () => {
    const probe = path.join(root, 'probe');
    const r = await underUmask0(['-e', `require('node:fs').writeFileSync(${JSON.stringify(probe)}, 'x')`]);
    expect(r.code, r.out).toBe(0);
    expect(mode(probe)).toBe('666');
  });

  it('`mcp add` creates config.toml 0600 (in a home folder it creates 0700); `mcp status` writes snapshots and the log 0600', async () => {
    // slow-start (0 s) announces itself on stderr, which goes to the log.
    const add = await underUmask0([BIN, 'mcp', 'add', 'fixture', '--env', 'API_TOKEN=s3cret', '--', NODE, CHAOS, '--mode', 'slow-start', '--start-delay', '0']);
    expect(add.code, add.out).toBe(0);
    expect(mode(path.join(home, 'config.toml'))).toBe('600');
    expect(mode(home)).toBe('700');
    const status = await underUmask0([BIN, 'mcp', 'status']);
    expect(status.code, status.out).toBe(0);
    const snapshots = path.join(home, 'cache', 'mcp-tools');
    const files = readdirSync(snapshots);
    expect(files).toHaveLength(1);
    expect(mode(path.join(snapshots, files[0]!))).toBe('600');
    expect(mode(snapshots)).toBe('700');
    expect(mode(path.join(home, 'cache'))).toBe('700');
    expect(mode(path.join(home, 'log', 'switchboard.log'))).toBe('600');
    expect(mode(path.join(home, 'log'))).toBe('700');
  });

  it('the OAuth credentials file is 0600, even when it existed with looser permissions', async () => {
    const file = path.join(root, 'creds', '.credentials.json');
    const script = `
      const { FileTokenStore } = await import(${JSON.stringify(path.join(REPO, 'dist/mcp-client/oauth/index.js'))});
      const store = new FileTokenStore(${JSON.stringify(file)});
      await store.save('docs|0123456789abcdef', { server_name: 'docs', server_url: 'https://docs.example/mcp', tokens: { access_token: 'at', token_type: 'Bearer', refresh_token: 'rt' }, expires_at: null });
    `;
    const first = await underUmask0(['--input-type=module', '-e', script]);
    expect(first.code, first.out).toBe(0);
    expect(mode(file)).toBe('600');
    expect(mode(path.dirname(file))).toBe('700');
    chmodSync(file, 0o644);
    writeFileSync(path.join(root, 'unrelated'), '');
    const second = await underUmask0(['--input-type=module', '-e', script]);
    expect(second.code, second.out).toBe(0);
    expect(mode(file)).toBe('600');
  });
});
