// A local stdio server started ahead of its client (mcp-client/prelaunch): the client's first launch
// adopts that very process and talks to it (what it wrote before is not lost), later launches start
// their own, and a process nobody takes is stopped (when its client closes, or at the startup timeout).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptingLauncher, type LaunchedServer } from '../../src/mcp-client/index.js';
import { prelaunchLocal, type Prelaunch } from '../../src/mcp-client/prelaunch/index.js';
import { isAlive } from '../support/process-tree.js';
import { removeTree, tempDir } from '../support/temp.js';
import { waitFor } from '../support/wait.js';
import { capturingLogger, clientPool, fixtureStdio, serverConfig, textOf } from './helpers.js';

const pool = clientPool();
const dirs: string[] = [];
afterEach(async () => {
  await pool.closeAll();
  await Promise.all(dirs.splice(0).map((d) => removeTree(d)));
});

/** A prelaunch whose process id the test learns when the client takes it. */
function watched(prelaunch: Prelaunch) {
  let taken: number | undefined;
  const spy: Prelaunch = {
    take() {
      const started = prelaunch.take();
      void started?.then((p) => (taken = p.child.pid), () => {});
      return started;
    },
    abandon: () => prelaunch.abandon(),
  };
  return { spy, takenPid: () => taken };
}


/** A server that writes its pid to a file and then waits (on stdin, like any stdio server). */
async function pidServer(name: string, extra: Record<string, unknown> = {}) {
  const dir = await tempDir('sb-prelaunch-');
  dirs.push(dir);
  const file = path.join(dir, 'pid');
  const config = serverConfig(name, {
    command: process.execPath,
    args: ['-e', "require('fs').writeFileSync(process.env.PID_FILE, String(process.pid)); process.stdin.resume()"],
    env: { PID_FILE: file },
    ...extra,
  });
  const pid = () => waitFor(async () => Number(await readFile(file, 'utf8').catch(() => '')) || undefined, 'the server writes its pid');
  return { config, pid };
}

describe('prelaunchLocal', () => {
  it('starts only a stdio server that runs on this machine', () => {
    const logger = capturingLogger();
    const environments = { exec: { id: 'exec', type: 'exec-server' as const, url: 'ws://127.0.0.1:1', token_env_var: null } };
    expect(prelaunchLocal(serverConfig('web', { url: 'http://127.0.0.1:1/mcp' }), environments, {}, logger)).toBeUndefined();
    expect(prelaunchLocal(serverConfig('far', { command: 'true', environment: 'exec' }), environments, {}, logger)).toBeUndefined();
  });

  it("hands its process to the client's first launch, which talks to it; a later launch starts its own", async () => {
    const logger = capturingLogger();
    const config = fixtureStdio('fx', 'stdio-v2-server.mjs');
    const { spy, takenPid } = watched(prelaunchLocal(config, {}, {}, logger)!);
    const adopting = adoptingLauncher({}, spy);
    const launched: string[] = [];
    const launcher = { ...adopting, launch: async (...a: Parameters<typeof adopting.launch>) => {
      const server = await adopting.launch(...a);
      launched.push(server.describe());
      return server;
    } };
    const client = pool.create(config, { launcher, logger });
    await client.connect();
    expect(textOf(await client.callTool('echo', { text: 'from the early process' }))).toBe('from the early process');
    expect(takenPid()).toBeDefined();
    expect(launched).toEqual([`local pid ${takenPid()}`]);

    const spec = { serverName: 'fx', command: process.execPath, args: ['-e', 'process.stdin.resume()'], env: null, envVars: [], cwd: null };
    const again: LaunchedServer = await launcher.launch(spec, { logger });
    expect(again.describe()).not.toBe(`local pid ${takenPid()}`);
    await again.transport.close();
  });

  it('stops a process whose client closes without launching it', async () => {
    const { config, pid } = await pidServer('early');
    const client = pool.create(config, { launcher: adoptingLauncher({}, prelaunchLocal(config, {}, {}, capturingLogger())!) });
    const started = await pid();
    expect(isAlive(started)).toBe(true);
    await client.close();
    await waitFor(() => !isAlive(started), 'the untaken process stopped');
  });

  it("stops a process nobody takes within the server's startup timeout", async () => {
    const { config, pid } = await pidServer('orphan', { startup_timeout_sec: 0.5 });
    const logger = capturingLogger();
    prelaunchLocal(config, {}, {}, logger);
    const started = await pid();
    await waitFor(() => !isAlive(started), 'the untaken process stopped', 10_000);
    expect(logger.lines.some((l) => l.includes("MCP server 'orphan': stopping the process started ahead of its client"))).toBe(true);
  });

  it('reports a server that cannot start to the launch that takes it', async () => {
    const config = serverConfig('missing', { command: '/nonexistent/mcp-server' });
    const client = pool.create(config, { launcher: adoptingLauncher({}, prelaunchLocal(config, {}, {}, capturingLogger())!) });
    await expect(client.connect()).rejects.toMatchObject({ code: 'launch_failed', message: expect.stringContaining('program `/nonexistent/mcp-server` not found (spawn ENOENT); check the server\'s `command`') });
  });
});
