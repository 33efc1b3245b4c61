// The credentials file (0600, atomic, locked across processes) and the keyring modes.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AutoTokenStore,
  FileTokenStore,
  KEYRING_SERVICE,
  KeyringTokenStore,
  createTokenStore,
  napiKeyringBackend,
  type StoredOAuthCredentials,
} from '../../../src/mcp-client/oauth/index.js';
import { nullLogger } from '../../../src/util/index.js';
import { tempHome } from '../../support/temp.js';

const DIST = path.resolve(import.meta.dirname, '../../../dist/mcp-client/oauth/index.js');

function creds(name: string): StoredOAuthCredentials {
  return {
    server_name: name,
    server_url: `https://${name}.example/mcp`,
    client_information: { client_id: `client-${name}` },
    tokens: { access_token: `at-${name}`, token_type: 'Bearer', refresh_token: `rt-${name}`, issuer: 'https://as.example/' },
    expires_at: Date.now() + 3600_000,
  };
}

/** A real keyring backend for this machine: the Linux kernel keyring (keyutils), when usable. */
async function keyutilsBackend() {
  if (process.platform !== 'linux') return undefined;
  const backend = napiKeyringBackend({ linuxStore: 'keyutils' });
  // The kernel keyring refuses the first access of a process; a second attempt tells.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await backend.set('switchboard-probe', 'probe', 'x');
      await backend.delete('switchboard-probe', 'probe');
      return backend;
    } catch {
      // try again
    }
  }
  return undefined;
}
const keyring = await keyutilsBackend();

describe('token stores', { timeout: 90_000 }, () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
  });

  async function home(): Promise<string> {
    const h = await tempHome();
    cleanup = h.cleanup;
    return h.home;
  }

  it('file store: 0600, entries keyed by store key, removed when empty', async () => {
    const dir = await home();
    const file = path.join(dir, '.credentials.json');
    const store = new FileTokenStore(file);
    await store.save('a|1', creds('a'));
    await store.save('b|2', creds('b'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')) as object).sort()).toEqual(['a|1', 'b|2']);
    expect((await store.load('a|1'))?.tokens?.access_token).toBe('at-a');
    expect(await store.delete('a|1')).toBe(true);
    expect(await store.delete('a|1')).toBe(false);
    expect(await store.delete('b|2')).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('file store: concurrent writers in one process lose no entry and leave no temp files', async () => {
    const dir = await home();
    const file = path.join(dir, '.credentials.json');
    await Promise.all(Array.from({ length: 20 }, (_, i) => new FileTokenStore(file).save(`s${i}|k`, creds(`s${i}`))));
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')) as object)).toHaveLength(20);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'))).toEqual([]);
  });

  it('file store: 8 processes writing at once lose no entry', async () => {
    if (!existsSync(DIST)) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
    const dir = await home();
    const file = path.join(dir, '.credentials.json');
    const script = `
      const { FileTokenStore } = await import(${JSON.stringify(DIST)});
      const name = process.argv[1];
      const store = new FileTokenStore(process.argv[2]);
      for (let i = 0; i < 5; i++) await store.save(name + '|' + i, { server_name: name, server_url: 'https://x/mcp' });
    `;
    const codes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, `p${i}`, file], { stdio: 'inherit' });
        return new Promise<number | null>((resolve) => child.once('exit', resolve));
      }),
    );
    expect(codes).toEqual(Array(8).fill(0));
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')) as object)).toHaveLength(40);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it.skipIf(process.platform !== 'linux')('auto mode falls back to the file when the OS keyring is unavailable', async () => {
    const dir = await home();
    const tempCleanup = cleanup!;
    // Secret Service on a session bus that does not exist: the real failure of a missing daemon.
    const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${path.join(dir, 'no-bus')}`;
    cleanup = async () => {
      if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
      else process.env.DBUS_SESSION_BUS_ADDRESS = saved;
      await tempCleanup();
    };
    const unreachable = napiKeyringBackend({ linuxStore: 'secret-service' });
    await expect(unreachable.get(KEYRING_SERVICE, 'probe')).rejects.toThrow();
    const store = createTokenStore({ mode: 'auto', home: dir, logger: nullLogger, keyring: unreachable });
    await store.save('docs|1', creds('docs'));
    expect((await store.load('docs|1'))?.tokens?.access_token).toBe('at-docs');
    expect(existsSync(path.join(dir, '.credentials.json'))).toBe(true);
    expect(await store.delete('docs|1')).toBe(true);
    // keyring mode makes the same failure fatal.
    const strict = createTokenStore({ mode: 'keyring', home: dir, logger: nullLogger, keyring: unreachable });
    await expect(strict.save('docs|1', creds('docs'))).rejects.toThrow(/cannot write the OS keyring/);
  });

  it.skipIf(!keyring)('keyring store against the kernel keyring; auto prefers it and clears the file entry (skipped: no usable keyutils keyring)', async () => {
    const dir = await home();
    const account = `test|${process.pid}`;
    const store = new KeyringTokenStore(KEYRING_SERVICE, keyring!);
    try {
      await store.save(account, creds('kr'));
      expect((await store.load(account))?.tokens?.refresh_token).toBe('rt-kr');

      const file = new FileTokenStore(path.join(dir, '.credentials.json'));
      await file.save(account, creds('old'));
      const auto = new AutoTokenStore(store, file, nullLogger);
      await auto.save(account, creds('new'));
      expect((await auto.load(account))?.tokens?.access_token).toBe('at-new');
      expect(await file.load(account)).toBeUndefined();
      expect(await auto.delete(account)).toBe(true);
      expect(await store.load(account)).toBeUndefined();
    } finally {
      await store.delete(account).catch(() => false);
    }
  });
});
