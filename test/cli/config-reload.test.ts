// LiveConfig, the reloading of config.toml behind `serve`, `mcp-server` and `mcp status --watch`: an
// editor's atomic rename, a Kubernetes ConfigMap's symlink swap and SIGHUP each reload the file; a
// TOML error, a schema error, a variable a new server needs that the process lacks, and a change the
// command refuses each keep the config in force and are reported with line and column; fixing the
// file applies it; the revision is the file's SHA-256 as `sha256sum` prints it.
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config/index.js';
import { SwitchboardError, createLogger } from '../../src/util/index.js';
import { LiveConfig, type ApplyConfig } from '../../src/cli/config-reload.js';
import { revisionOf, saveAsEditor } from '../support/config-save.js';
import { removeTree, tempDir } from '../support/temp.js';
import { Changes } from '../support/wait.js';

const SERVER = '[mcp_servers.docs]\ncommand = "docs-server"\n';

interface Setup {
  home: string;
  live: LiveConfig;
  applied: Config[];
  log: string[];
  /** Resolves after the next reload has settled (applied or refused). */
  settled(after: () => Promise<unknown>): Promise<void>;
  /** Writes config.toml as an editor does: a new file renamed over the old one. */
  write(text: string): Promise<void>;
}

const homes: string[] = [];
const lives: LiveConfig[] = [];
afterEach(async () => {
  for (const l of lives.splice(0)) l.close();
  await Promise.all(homes.splice(0).map(removeTree));
});

async function setup(text: string, options: { env?: NodeJS.ProcessEnv; apply?: ApplyConfig; watchFile?: boolean } = {}): Promise<Setup> {
  const home = await tempDir('sb-live-config-');
  homes.push(home);
  const file = path.join(home, 'config.toml');
  await writeFile(file, text);
  const log: string[] = [];
  const applied: Config[] = [];
  const ctx = { home, configFile: undefined, overrides: [], logger: createLogger((line) => log.push(line)), env: options.env ?? {} };
  const apply: ApplyConfig =
    options.apply ??
    (async (next) => {
      applied.push(next.config);
      return { summary: `servers ${Object.keys(next.config.mcp_servers).join(', ')}`, restartNeeded: [] };
    });
  const live = new LiveConfig(ctx, await loadConfig({ home }), apply).start({ watchFile: options.watchFile ?? true });
  lives.push(live);
  const changes = new Changes();
  let seen = 0;
  live.onChange(() => {
    seen++;
    changes.notify();
  });
  return {
    home,
    live,
    applied,
    log,
    async settled(after) {
      const before = seen;
      await after();
      await changes.until(() => seen > before, () => `no reload settled; log:\n${log.join('\n')}`, 10_000);
    },
    async write(t) {
      await saveAsEditor(file, t);
    },
  };
}

describe('LiveConfig', () => {
  it('applies an editor\'s atomic rename, and names the revision by the file\'s SHA-256', async () => {
    const s = await setup(SERVER);
    expect(s.live.current()).toMatchObject({ revision: revisionOf(SERVER), reloads: { applied: 0, failed: 0 }, restartNeeded: [] });
    const next = `${SERVER}[mcp_servers.git]\ncommand = "git-server"\n`;
    await s.settled(() => s.write(next));
    expect(s.applied.map((c) => Object.keys(c.mcp_servers))).toEqual([['docs', 'git']]);
    expect(s.live.config.mcp_servers.git?.name).toBe('git');
    expect(s.live.current()).toMatchObject({ revision: revisionOf(next), reloads: { applied: 1, failed: 0 } });
    expect(s.live.current().error).toBeUndefined();
    expect(s.log.some((l) => l.includes(`INFO config reloaded (revision ${revisionOf(SERVER)} -> ${revisionOf(next)}): servers docs, git`))).toBe(true);
  });

  it('applies a Kubernetes ConfigMap update (the ..data symlink swapped to a new folder)', async () => {
    const s = await setup('');
    // The file is mounted as config.toml -> ..data/config.toml, ..data -> a timestamped folder.
    const mount = async (folder: string, text: string) => {
      await mkdir(path.join(s.home, folder));
      await writeFile(path.join(s.home, folder, 'config.toml'), text);
      await symlink(folder, path.join(s.home, '..data_tmp'));
      await rename(path.join(s.home, '..data_tmp'), path.join(s.home, '..data'));
    };
    await s.settled(async () => {
      await mount('..2026_12_05_1', SERVER);
      await rm(path.join(s.home, 'config.toml'));
      await symlink('..data/config.toml', path.join(s.home, 'config.toml'));
    });
    expect(s.live.current().revision).toBe(revisionOf(SERVER));
    const next = `${SERVER}[mcp_servers.git]\ncommand = "git-server"\n`;
    await s.settled(() => mount('..2026_12_05_2', next));
    expect(s.live.current().revision).toBe(revisionOf(next));
    expect(Object.keys(s.live.config.mcp_servers)).toEqual(['docs', 'git']);
  });

  it('reloads on SIGHUP without a file watch', async () => {
    const s = await setup(SERVER, { watchFile: false });
    const next = `${SERVER}startup_timeout_sec = 5\n`;
    await s.write(next);
    await s.settled(async () => process.emit('SIGHUP', 'SIGHUP'));
    expect(s.live.current().revision).toBe(revisionOf(next));
    expect(s.applied).toHaveLength(1);
  });

  it('keeps the config in force on a TOML error, says where, and applies the fixed file', async () => {
    const s = await setup(SERVER);
    await s.settled(() => s.write('[mcp_servers.docs\ncommand = "docs-server"\n'));
    const row = s.live.current();
    expect(row.revision).toBe(revisionOf(SERVER));
    expect(row.error).toMatchObject({ line: 1, column: 1, message: expect.stringMatching(/config\.toml:1:1: invalid TOML/) });
    expect(row.reloads).toEqual({ applied: 0, failed: 1 });
    expect(s.applied).toEqual([]);
    expect(s.live.config.mcp_servers.docs?.name).toBe('docs');
    expect(s.log.some((l) => l.includes(`ERROR config not applied; revision ${revisionOf(SERVER)} still serves: `) && l.includes('config.toml:1:1: invalid TOML'))).toBe(true);

    const fixed = `${SERVER}[mcp_servers.web]\nurl = "http://127.0.0.1:9/mcp"\n`;
    await s.settled(() => s.write(fixed));
    expect(s.live.current()).toMatchObject({ revision: revisionOf(fixed), reloads: { applied: 1, failed: 1 } });
    expect(s.live.current().error).toBeUndefined();
  });

  it('refuses a schema error with the line and column of the key', async () => {
    const s = await setup(SERVER);
    await s.settled(() => s.write(`${SERVER}\n[mcp_servers.slow]\ncommand = "x"\nstartup_timeout_sec = "soon"\n`));
    expect(s.live.current().error).toMatchObject({ line: 6, column: 1, message: expect.stringContaining('startup_timeout_sec must be a non-negative number (key mcp_servers.slow.startup_timeout_sec)') });
    expect(s.applied).toEqual([]);
  });

  it('refuses a new server whose variable this process lacks, naming the key, and takes it once the process has it', async () => {
    const text = `${SERVER}[mcp_servers.api]\nurl = "https://api.example/mcp"\n  bearer_token_env_var = "SB_API_TOKEN"\n`;
    const s = await setup(SERVER);
    await s.settled(() => s.write(text));
    expect(s.live.current().error).toMatchObject({
      line: 5,
      column: 3,
      message: expect.stringContaining('environment variable SB_API_TOKEN is not set in this process (it keeps the environment it started with); set it and restart, or name a variable it has (key mcp_servers.api.bearer_token_env_var)'),
    });
    const withToken = await setup(SERVER, { env: { SB_API_TOKEN: 'secret-token-value' } });
    await withToken.settled(() => withToken.write(text));
    expect(withToken.live.current().error).toBeUndefined();
    expect(Object.keys(withToken.live.config.mcp_servers)).toEqual(['docs', 'api']);
  });

  it('keeps the config in force when the command refuses the change, and a file back to the revision in force clears the error', async () => {
    const s = await setup(SERVER, {
      apply: async () => {
        throw new SwitchboardError('gateway_transparent', 'the running gateway is a transparent proxy for MCP server \'docs\'');
      },
    });
    await s.settled(() => s.write(`${SERVER}[mcp_servers.git]\ncommand = "git-server"\n`));
    expect(s.live.current().error).toMatchObject({ message: "the running gateway is a transparent proxy for MCP server 'docs'" });
    expect(Object.keys(s.live.config.mcp_servers)).toEqual(['docs']);
    await s.settled(() => s.write(SERVER));
    expect(s.live.current().error).toBeUndefined();
    expect(s.live.current().reloads).toEqual({ applied: 0, failed: 1 });
  });
});
