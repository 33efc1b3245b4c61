// Claude Code's own setup of a Codex server, with `switchboard` in place of `codex` (issue 32):
// `claude mcp add codex -- switchboard -m gpt-5.3-codex mcp-server`, then `claude mcp list` reports it
// connected; the command line Claude Code stored, started by the SDK client, runs a turn on the model
// -m named. Claude Code comes from the npm registry (a pinned version, installed once into a cache
// folder under the temp directory); where it cannot be installed the suite says so in its title.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { BIN, requireBuild } from '../support/mcp-server-harness.js';
import { removeTree, tempDir } from '../support/temp.js';

const run = promisify(execFile);
const VERSION = '2.1.328';
const CACHE = path.join(os.tmpdir(), `switchboard-test-claude-code-${VERSION}`);
const CLAUDE = path.join(CACHE, 'node_modules', '.bin', 'claude');

/** Claude Code from npm (about 17 s and 360 MB the first time); null with the reason when that fails. */
async function installClaude(): Promise<string | null> {
  if (existsSync(CLAUDE)) return null;
  try {
    await mkdir(CACHE, { recursive: true });
    await run('npm', ['install', '--prefix', CACHE, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `@anthropic-ai/claude-code@${VERSION}`], { timeout: 300_000 });
    return existsSync(CLAUDE) ? null : 'npm installed no claude binary';
  } catch (err) {
    return `npm install failed: ${(err as Error).message.split('\n')[0]}`;
  }
}

const unavailable = await installClaude();
const title = unavailable === null ? `Claude Code ${VERSION} with switchboard in place of codex` : `Claude Code with switchboard [skipped: ${unavailable}]`;

describe.skipIf(unavailable !== null)(title, { timeout: 120_000 }, () => {
  let model: FakeModelServer;
  let root: string;
  let env: Record<string, string>;
  let project: string;

  beforeAll(async () => {
    requireBuild();
    model = await startFakeModelServer();
    root = await tempDir('sb-claude-code-');
    const bin = path.join(root, 'bin');
    project = path.join(root, 'project');
    const home = path.join(root, 'sb-home');
    await Promise.all([mkdir(bin), mkdir(project), mkdir(home)]);
    // `switchboard` on PATH, as an installed package puts it there.
    await writeFile(path.join(bin, 'switchboard'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    await chmod(path.join(bin, 'switchboard'), 0o755);
    await writeFile(
      path.join(home, 'config.toml'),
      ['model_provider = "mock"', '[model_providers.mock]', `base_url = "${model.url}"`, 'env_key = "MOCK_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0', ''].join('\n'),
    );
    env = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: root,
      SWITCHBOARD_HOME: home,
      MOCK_KEY: 'sk-mock',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    };
  });
  afterAll(async () => {
    await model?.close();
    if (root) await removeTree(root);
  });

  it('`claude mcp add codex -- switchboard -m gpt-5.3-codex mcp-server`, then `claude mcp list` shows it connected', async () => {
    const add = await run(CLAUDE, ['mcp', 'add', 'codex', '--', 'switchboard', '-m', 'gpt-5.3-codex', 'mcp-server'], { cwd: project, env, timeout: 60_000 });
    expect(add.stdout).toContain('Added stdio MCP server codex with command: switchboard -m gpt-5.3-codex mcp-server');
    const list = await run(CLAUDE, ['mcp', 'list'], { cwd: project, env, timeout: 90_000 });
    expect(list.stdout).toMatch(/^codex: switchboard -m gpt-5\.3-codex mcp-server - ✔ Connected$/m);
  });

  it('the command line Claude Code stored runs a turn on the model -m names', async () => {
    const stored = JSON.parse(await readFile(path.join(root, '.claude.json'), 'utf8')) as { projects: Record<string, { mcpServers: Record<string, { command: string; args: string[] }> }> };
    const server = stored.projects[project]!.mcpServers.codex!;
    expect(server).toMatchObject({ command: 'switchboard', args: ['-m', 'gpt-5.3-codex', 'mcp-server'] });
    const client = new Client({ name: 'claude-code-stand-in', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env, cwd: project, stderr: 'ignore' }));
    try {
      model.enqueue(responsesTurn({ text: 'hello from switchboard' }));
      const result = await client.callTool({ name: 'codex', arguments: { prompt: 'hi', 'approval-policy': 'never' } });
      expect(result).toMatchObject({ content: [{ text: 'hello from switchboard' }], structuredContent: { content: 'hello from switchboard' } });
      expect(model.requests.at(-1)!.body.model).toBe('gpt-5.3-codex');
    } finally {
      await client.close();
    }
  });
});
