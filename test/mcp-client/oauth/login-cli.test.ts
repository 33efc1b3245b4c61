// `switchboard mcp login` / `logout` as real processes: texts, exit codes, the browser hand-off
// ($BROWSER), the manual fallback when no browser starts, and the credentials file they leave.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';
import { autoApproveBrowser } from './helpers.js';
import { tempHome } from '../../support/temp.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'bin', 'switchboard.js');
const FAKE_BROWSER = path.join(ROOT, 'test', 'fixtures', 'fake-browser.mjs');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv, onStdout?: (text: string) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(stdout);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('switchboard mcp login / logout', { timeout: 120_000 }, () => {
  let fixture: OAuthFixture | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(() => {
    if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  });
  afterEach(async () => {
    await fixture?.close();
    await cleanup?.();
  });

  async function setup(): Promise<{ env: NodeJS.ProcessEnv; home: string }> {
    fixture = await startOAuthFixture();
    const h = await tempHome();
    cleanup = h.cleanup;
    await writeFile(
      path.join(h.home, 'config.toml'),
      `mcp_oauth_credentials_store = "file"\n[mcp_servers.docs]\nurl = "${fixture.mcpUrl}"\n[mcp_servers.local]\ncommand = "true"\n`,
    );
    return { env: { SWITCHBOARD_HOME: h.home, BROWSER: FAKE_BROWSER }, home: h.home };
  }

  it('mcp add --url detects OAuth support and says how to log in (not a terminal: no browser)', async () => {
    const { env } = await setup();
    const added = await run(['mcp', 'add', 'fresh', '--url', fixture!.mcpUrl], env);
    expect(added.code).toBe(0);
    expect(added.stdout).toBe("Added global MCP server 'fresh'.\nDetected OAuth support. Run `switchboard mcp login fresh` to log in.\n");
    const bearer = await run(['mcp', 'add', 'tokened', '--url', fixture!.mcpUrl, '--bearer-token-env-var', 'TOKEN'], env);
    expect(bearer.stdout).toBe("Added global MCP server 'tokened'.\n");
  });

  it('logs in through the browser, then logs out', async () => {
    const { env, home } = await setup();
    const login = await run(['mcp', 'login', 'docs'], env);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(/^Authorize `docs` by opening this URL in your browser:\nhttp:\/\/127\.0\.0\.1:\d+\/authorize\?\S+\n\n/);
    expect(login.stdout.endsWith("Successfully logged in to MCP server 'docs'.\n")).toBe(true);
    expect(login.stdout).not.toContain('Browser launch failed');
    expect(existsSync(path.join(home, '.credentials.json'))).toBe(true);

    expect(await run(['mcp', 'logout', 'docs'], env)).toMatchObject({ code: 0, stdout: "Removed OAuth credentials for 'docs'.\n" });
    expect(await run(['mcp', 'logout', 'docs'], env)).toMatchObject({ code: 0, stdout: "No OAuth credentials stored for 'docs'.\n" });
    expect(existsSync(path.join(home, '.credentials.json'))).toBe(false);
  });

  it('prints the manual fallback when no browser starts, and completes from the copied URL', async () => {
    const { env } = await setup();
    let opened = false;
    const login = await run(['mcp', 'login', 'docs', '--scopes', 'a,b'], { ...env, BROWSER: '/nonexistent/browser' }, (out) => {
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(out)?.[1];
      if (url && out.includes('(Browser launch failed; please copy the URL above manually.)') && !opened) {
        opened = true;
        void autoApproveBrowser(url);
      }
    });
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('(Browser launch failed; please copy the URL above manually.)\n');
    expect(login.stdout).toContain("Successfully logged in to MCP server 'docs'.");
    expect(fixture!.requestsTo('/authorize')[0]!.params.scope).toBe('a b');
  });

  it("uses Codex's texts for unknown and stdio servers", async () => {
    const { env } = await setup();
    expect(await run(['mcp', 'login', 'nope'], env)).toMatchObject({ code: 1, stderr: "error: No MCP server named 'nope' found.\n" });
    expect(await run(['mcp', 'logout', 'nope'], env)).toMatchObject({ code: 1, stderr: "error: No MCP server named 'nope' found in configuration.\n" });
    expect(await run(['mcp', 'login', 'local'], env)).toMatchObject({ code: 1, stderr: 'error: OAuth login is only supported for streamable HTTP servers.\n' });
    expect(await run(['mcp', 'logout', 'local'], env)).toMatchObject({ code: 1, stderr: 'error: OAuth logout is only supported for streamable_http transports.\n' });
  });
});
