// What the OAuth commands say: `mcp login` / `mcp status` name the credential kind and whether a valid
// credential is held, `mcp logout` forgets it, no kind without a browser opens one; `mcp list` never
// connects; an unreachable server and a server without OAuth are said so plainly (not "run mcp login",
// not "fetch failed", not the server's HTML page); discovery errors are typed.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverAuthorizationState } from '../../../src/mcp-client/oauth/index.js';
import { isMcpClientError } from '../../../src/mcp-client/index.js';
import { runCli } from '../../support/cli.js';
import { tempHome } from '../../support/temp.js';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';
import { freePort } from '../../support/free-port.mjs';

let fixture: OAuthFixture | undefined;
let plain: Server | undefined;
let home = '';
let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  if (plain) await new Promise<void>((resolve) => plain!.close(() => resolve()));
  plain = undefined;
  await cleanup?.();
});

async function writeConfig(lines: string[]): Promise<void> {
  ({ home, cleanup } = await tempHome());
  await writeFile(path.join(home, 'config.toml'), ['mcp_oauth_credentials_store = "file"', ...lines, ''].join('\n'));
}

/** A $BROWSER that leaves a mark when it is started. */
async function recordingBrowser(): Promise<{ env: NodeJS.ProcessEnv; opened: () => boolean }> {
  const script = path.join(home, 'browser.sh');
  const mark = path.join(home, 'browser-opened');
  await writeFile(script, `#!/bin/sh\ntouch ${JSON.stringify(mark)}\n`, { mode: 0o755 });
  return { env: { BROWSER: script, PATH: process.env.PATH }, opened: () => existsSync(mark) };
}

describe('mcp login / status / logout for a credential without a browser', () => {
  it('login names the kind and the token it got, opens no browser; status shows it; logout forgets it', async () => {
    fixture = await startOAuthFixture({ preRegistered: { clientId: 'svc', clientSecret: 's3cret' } });
    await writeConfig(['[mcp_servers.svc]', `url = "${fixture.mcpUrl}"`, 'oauth = { grant_type = "client_credentials", client_id = "svc", client_secret_env_var = "SVC_SECRET" }']);
    const browser = await recordingBrowser();
    const env = { ...browser.env, SVC_SECRET: 's3cret' };

    const login = await runCli(['mcp', 'login', 'svc'], { home, env });
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(
      /^MCP server 'svc' uses client credentials \(secret\): no browser login is needed\.\nObtained a token for MCP server 'svc' \(token valid for 60 min\)\.\n$/,
    );
    expect(browser.opened()).toBe(false);

    const status = await runCli(['mcp', 'status'], { home, env });
    expect(status.stdout).toMatch(/Auth/);
    expect(status.stdout).toMatch(/svc .*client credentials \(secret\): token valid for (59|60) min/);
    const json = JSON.parse((await runCli(['mcp', 'status', '--json'], { home, env })).stdout) as { servers: { name: string; auth?: unknown }[] };
    expect(json.servers.find((s) => s.name === 'svc')?.auth).toMatchObject({ kind: 'client_secret', dpop: false, state: 'valid' });
    expect(fixture.stats.clientCredentialsGrants).toBe(1);

    expect((await runCli(['mcp', 'logout', 'svc'], { home, env })).stdout).toBe("Removed OAuth credentials for 'svc'.\n");
    expect(existsSync(path.join(home, '.credentials.json'))).toBe(false);
  });

  it('status says which kind a browser-login server uses and that it is not logged in', async () => {
    fixture = await startOAuthFixture();
    await writeConfig(['[mcp_servers.docs]', `url = "${fixture.mcpUrl}"`, 'oauth = { dpop = true }']);
    const json = JSON.parse((await runCli(['mcp', 'status', '--json'], { home })).stdout) as { servers: { name: string; auth?: unknown; error?: string }[] };
    const docs = json.servers.find((s) => s.name === 'docs');
    expect(docs?.auth).toEqual({ kind: 'browser_login', dpop: true, state: 'missing' });
    expect(docs?.error).toBe('The docs MCP server is not logged in. Run `switchboard mcp login docs`.');
    expect((await runCli(['mcp', 'status'], { home })).stdout).toMatch(/docs .*browser login \+ DPoP: not logged in/);
    // Nothing to bind before a login: no DPoP key was made or stored.
    expect(existsSync(path.join(home, '.credentials.json'))).toBe(false);
  });
});

describe('mcp list never connects', () => {
  it('reports auth from config.toml and the stored credentials only, with no request to the server', async () => {
    fixture = await startOAuthFixture();
    await writeConfig([
      '[mcp_servers.plain]',
      `url = "${fixture.mcpUrl}"`,
      '[mcp_servers.configured]',
      `url = "${fixture.url}/mcp?tenant=2"`,
      'oauth = { client_id = "cid" }',
      '[mcp_servers.machine]',
      `url = "${fixture.url}/mcp?tenant=3"`,
      'oauth = { grant_type = "client_credentials", client_id = "svc", client_secret_env_var = "SVC_SECRET" }',
    ]);
    const r = await runCli(['mcp', 'list', '--json'], { home, env: { SVC_SECRET: 'x' } });
    expect(r.code).toBe(0);
    const auth = Object.fromEntries((JSON.parse(r.stdout) as { name: string; auth_status: string }[]).map((s) => [s.name, s.auth_status]));
    expect(auth).toEqual({ configured: 'not_logged_in', machine: 'oauth', plain: 'unsupported' });
    expect(fixture.requests).toEqual([]);
  });
});

describe('unreachable servers and servers without OAuth', () => {
  it('mcp add --url of a refused port says it could not check, not "run mcp login"', async () => {
    const port = await freePort();
    await writeConfig([]);
    const r = await runCli(['mcp', 'add', 'gone', '--url', `http://127.0.0.1:${port}/mcp`], { home });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `Added global MCP server 'gone'.\nCould not check whether MCP server 'gone' needs a login: cannot reach http://127.0.0.1:${port}/mcp for OAuth discovery: connect ECONNREFUSED 127.0.0.1:${port}. Check the URL; \`switchboard mcp status\` connects and says what it needs.\n`,
    );
    expect(r.stdout).not.toContain('mcp login');
  });

  it('mcp login of an unreachable server says which server, where, and why', async () => {
    const port = await freePort();
    await writeConfig(['[mcp_servers.gone]', `url = "http://127.0.0.1:${port}/mcp"`]);
    const r = await runCli(['mcp', 'login', 'gone'], { home });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: Cannot reach MCP server 'gone' at http://127.0.0.1:${port}/mcp: connect ECONNREFUSED 127.0.0.1:${port}. Check that the server is running and that its url in config.toml is right.\n`,
    );
  });

  it('mcp login of a server without OAuth says so, without its HTML 404 page', async () => {
    // An MCP endpoint that needs no authorization; everything else is an HTML 404, as web frameworks answer.
    plain = createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/mcp') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'plain', version: '1' } } }));
        return;
      }
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>');
    });
    await new Promise<void>((resolve) => plain!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/mcp`;
    await writeConfig(['[mcp_servers.open]', `url = "${url}"`]);
    const r = await runCli(['mcp', 'login', 'open'], { home });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "error: MCP server 'open' does not use OAuth: it answered an unauthenticated request with HTTP 200 and publishes no OAuth metadata. It needs no login; if it wants a token, set bearer_token_env_var in its [mcp_servers.open] table.\n",
    );
  });

  it('discoverAuthorizationState on a refused port rejects with the typed network error', async () => {
    const port = await freePort();
    const error = await discoverAuthorizationState(`http://127.0.0.1:${port}/mcp`, {}).catch((err: unknown) => err);
    expect(isMcpClientError(error, 'network')).toBe(true);
    expect((error as Error).message).toBe(`cannot reach http://127.0.0.1:${port}/mcp for OAuth discovery: connect ECONNREFUSED 127.0.0.1:${port}`);
  });
});
