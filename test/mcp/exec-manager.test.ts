// A server on an exec-server, run by the connection manager: when the exec-server goes away the
// server is treated as crashed, and when it comes back the manager reconnects with backoff.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../../src/config/index.js';
import { createDefaultClientFactory, McpConnectionManager, type McpManagerEvent } from '../../src/mcp/index.js';
import { nullLogger } from '../../src/util/index.js';
import { startExecServerProcess, type ExecServerProcess } from '../support/exec-processes.js';
import { EventLog } from '../support/wait.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

const TOKEN = randomBytes(24).toString('base64url');
let dir: string;
let tokenFile: string;
let exec: ExecServerProcess | undefined;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-exec-mgr-'));
  tokenFile = path.join(dir, 'token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
});
afterAll(async () => {
  await exec?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('connection manager over an exec-server', () => {
  it('treats a lost exec-server as a crash and reconnects with backoff when it is back', async () => {
    exec = await startExecServerProcess(['--listen', '127.0.0.1:0', '--token-file', tokenFile]);
    const url = exec.url;
    const listen = url.replace(/^ws:\/\//, '');
    const server = parseMcpServerConfig('remote', {
      command: process.execPath,
      args: [fixtureProgram('mcp/manager-server.mjs')],
      cwd: dir,
      env: { MGR_NAME: 'remote' },
      environment: 'box',
    }).config;
    const log = new EventLog<McpManagerEvent>();
    const events = log.events;
    const manager = new McpConnectionManager(
      { servers: { remote: server }, restart: { initialDelayMs: 200, maxDelayMs: 400 } },
      {
        logger: nullLogger,
        createClient: createDefaultClientFactory({
          logger: nullLogger,
          environments: { box: { id: 'box', type: 'exec-server', url, token_env_var: 'EXEC_TOKEN' } },
          env: { ...process.env, EXEC_TOKEN: TOKEN },
        }),
        onEvent: (e) => log.push(e),
      },
    );
    try {
      await manager.waitForStartup();
      const readyCount = () => events.filter((e) => e.type === 'mcp_startup_update' && e.status.state === 'ready').length;
      expect(readyCount()).toBe(1);
      const first = await manager.callTool('mcp__remote__echo', { text: 'one' });
      expect(first.content).toEqual([{ type: 'text', text: 'remote:echo:one' }]);

      await exec.stop();
      await log.waitFor((e) => e.type === 'mcp_startup_update' && e.status.state === 'failed', 30_000, 'failed update');
      await expect(manager.callTool('mcp__remote__echo', { text: 'down' })).rejects.toThrow(/MCP server 'remote' is unavailable/);

      // The same address again: the manager's background retries find it.
      exec = await startExecServerProcess(['--listen', listen, '--token-file', tokenFile]);
      await log.waitFor(() => readyCount() === 2, 30_000, 'second ready update');
      const again = await manager.callTool('mcp__remote__echo', { text: 'two' });
      expect(again.content).toEqual([{ type: 'text', text: 'remote:echo:two' }]);
    } finally {
      await manager.close();
    }
  }, 60_000);
});
