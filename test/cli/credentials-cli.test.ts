// `switchboard credentials list|revoke` over the file store: callers' upstream logins listed without
// their contents, revoked by caller or server, a revoke without a filter refused as a usage error,
// and a config without the credentials key told how to set one.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { runCli } from '../support/cli.js';
import { removeTree, tempDir } from '../support/temp.js';

const KEY = 'a-caller-credentials-key-long-enough-0123456789';
const env = { SB_KEY: KEY };

describe('switchboard credentials', () => {
  let home: string;
  beforeEach(async () => {
    home = await tempDir('sb-credentials-cli-');
    await writeFile(path.join(home, 'config.toml'), '[store]\ncredentials_key_env_var = "SB_KEY"\n');
    const store = await openStore({ home, settings: { postgres_url_env_var: null, credentials_key_env_var: 'SB_KEY' }, env });
    for (const [caller, server] of [['iss#alice', 'github'], ['iss#alice', 'jira'], ['iss#bob', 'github']] as const) {
      await store.callerCredentials!.save(caller, server, `${server}|https://${server}`, { tokens: { access_token: `secret-of-${caller}` } });
    }
    await store.close();
  });
  afterEach(async () => removeTree(home));

  it('lists whose and for which server, never a token', async () => {
    const all = await runCli(['credentials', 'list'], { home, env });
    expect(all.code).toBe(0);
    expect(all.stdout.trim().split('\n').map((l) => l.split('  ').slice(0, 2).join(' ')).sort()).toEqual(['iss#alice github', 'iss#alice jira', 'iss#bob github']);
    expect(all.stdout).not.toContain('secret-of');
    const mine = await runCli(['credentials', 'list', '--caller', 'iss#bob', '--json'], { home, env });
    expect(mine.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { server: string }).server)).toEqual(['github']);
  });

  it('revokes by caller and server; refuses a revoke that names nobody', async () => {
    const bare = await runCli(['credentials', 'revoke'], { home, env });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('--caller, --server (or both), or --all');
    const one = await runCli(['credentials', 'revoke', '--caller', 'iss#alice', '--server', 'github'], { home, env });
    expect(one.stdout).toContain('revoked 1 caller credential\n');
    const left = await runCli(['credentials', 'list', '--server', 'github'], { home, env });
    expect(left.stdout).toContain('iss#bob');
    expect(left.stdout).not.toContain('iss#alice');
    expect((await runCli(['credentials', 'revoke', '--all'], { home, env })).stdout).toContain('revoked 2 caller credentials');
  });

  it('says how to set the key when config has none', async () => {
    await writeFile(path.join(home, 'config.toml'), '');
    const r = await runCli(['credentials', 'list'], { home, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('set [store] credentials_key_env_var');
  });
});
