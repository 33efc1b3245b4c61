// Every credential kind a server can be configured for, through `switchboard mcp call` (each run a
// fresh process state) against the OAuth fixture: client credentials with a secret file and with a
// private key (private_key_jwt), jwt-bearer from a workload token file (rotated, expired), the
// enterprise identity assertion (token exchange at the IdP, then jwt-bearer), and expired tokens.
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../../support/cli.js';
import type { OAuthFixture, OAuthFixtureOptions } from '../../fixtures/oauth-fixture.js';
import { expireStoredTokens, oauthCliHome, type OAuthCliHome } from './helpers.js';

let current: OAuthCliHome | undefined;
let fixture: OAuthFixture | undefined;
let home = '';

afterEach(async () => {
  await current?.close();
  current = undefined;
});

/** A fixture and a home whose config.toml has `[mcp_servers.svc]` with these `oauth` lines. */
async function setup(fixtureOptions: OAuthFixtureOptions, oauthLines: (f: OAuthFixture) => string[]): Promise<OAuthFixture> {
  current = await oauthCliHome(fixtureOptions, (f, h) => {
    home = h;
    return oauthLines(f);
  });
  fixture = current.fixture;
  return fixture;
}

async function secretFile(name: string, content: string, mode = 0o600): Promise<string> {
  const file = path.join(home, name);
  await writeFile(file, content, { mode });
  await chmod(file, mode);
  return file;
}

const call = (text: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> => runCli(['mcp', 'call', 'mcp__svc__echo', '--args', JSON.stringify({ text })], { home, env });
const echoed = (r: CliResult) => {
  if (r.code !== 0) throw new Error(`mcp call failed (${r.code}): ${r.stderr}`);
  return (JSON.parse(r.stdout) as { content: { text: string }[] }).content[0]!.text;
};

/** Why `svc` failed to start, as `mcp status --json` reports it ('' when it started). */
async function startupError(env: NodeJS.ProcessEnv = {}): Promise<string> {
  const r = await runCli(['mcp', 'status', '--json'], { home, env });
  const status = JSON.parse(r.stdout) as { failed: { server: string; error: string }[] };
  return status.failed.find((f) => f.server === 'svc')?.error ?? '';
}

describe('credential kinds through mcp call', () => {
  it('client credentials with a secret file: a token without a login, a new one once it has expired', async () => {
    await setup({ preRegistered: { clientId: 'svc', clientSecret: 's3cret' } }, () => ['grant_type = "client_credentials"', 'client_id = "svc"', `client_secret_file = "${path.join(home, 'secret')}"`]);
    await secretFile('secret', 's3cret\n');
    const first = await call('one');
    expect(first.stderr).toBe('');
    expect(echoed(first)).toBe('echo: one');
    const [request] = fixture!.requestsTo('/token');
    expect(request!.params.grant_type).toBe('client_credentials');
    expect(request!.authorization).toBe(`Basic ${Buffer.from('svc:s3cret').toString('base64')}`);

    // The stored token is used by the next process...
    expect(echoed(await call('two'))).toBe('echo: two');
    expect(fixture!.stats.clientCredentialsGrants).toBe(1);
    // ...until it has expired: then a new one is fetched before the call (no 401 first).
    await expireStoredTokens(home);
    expect(echoed(await call('three'))).toBe('echo: three');
    expect(fixture!.stats.clientCredentialsGrants).toBe(2);
    expect(fixture!.stats.mcpUnauthorized).toBe(0);
    // A token the server forgot: one 401, one new token, the call goes through.
    fixture!.rejectIssuedAccessTokens();
    expect(echoed(await call('four'))).toBe('echo: four');
    expect(fixture!.stats.clientCredentialsGrants).toBe(3);
  });

  it('client credentials with a private key (private_key_jwt): a signed assertion, no secret on the wire', async () => {
    await setup({ privateKeyClient: { clientId: 'signer' } }, () => ['grant_type = "client_credentials"', 'client_id = "signer"', `private_key_file = "${path.join(home, 'key.pem')}"`]);
    await secretFile('key.pem', fixture!.grants!.clientKeyPem);
    expect(echoed(await call('signed'))).toBe('echo: signed');
    const [request] = fixture!.requestsTo('/token');
    expect(request!.params.client_assertion_type).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    expect(request!.params.client_assertion).toMatch(/^ey/);
    expect(request!.authorization).toBeUndefined();
    expect(request!.params.client_secret).toBeUndefined();
  });

  it('refuses a private key file others can read, naming the key and the fix', async () => {
    await setup({ privateKeyClient: { clientId: 'signer' } }, () => ['grant_type = "client_credentials"', 'client_id = "signer"', `private_key_file = "${path.join(home, 'key.pem')}"`]);
    const key = await secretFile('key.pem', fixture!.grants!.clientKeyPem, 0o644);
    expect(await startupError()).toContain(`MCP server 'svc': oauth.private_key_file ${key} is accessible by other users (mode 0644); run \`chmod 600 ${key}\``);
    expect(fixture!.requestsTo('/token')).toHaveLength(0);
  });

  it('jwt-bearer from a workload token file: re-read when the platform rotates it; an expired one is refused before sending', async () => {
    await setup({ publicClients: ['workload'] }, () => ['grant_type = "jwt_bearer"', 'client_id = "workload"', `assertion_file = "${path.join(home, 'token')}"`]);
    const tokenFile = path.join(home, 'token');
    const first = await fixture!.mintWorkloadToken();
    await writeFile(tokenFile, first);
    expect(echoed(await call('one'))).toBe('echo: one');
    expect(fixture!.requestsTo('/token').map((r) => [r.params.grant_type, r.params.assertion])).toEqual([['urn:ietf:params:oauth:grant-type:jwt-bearer', first]]);

    // The platform rotates the file; the next token request presents the new token.
    const rotated = await fixture!.mintWorkloadToken({ subject: 'rotated' });
    await writeFile(tokenFile, rotated);
    await expireStoredTokens(home);
    expect(echoed(await call('two'))).toBe('echo: two');
    expect(fixture!.requestsTo('/token').at(-1)!.params.assertion).toBe(rotated);

    // A token past its exp is not sent; the message says which file and since when.
    await writeFile(tokenFile, await fixture!.mintWorkloadToken({ expiresInSec: -60 }));
    await expireStoredTokens(home);
    expect(await startupError()).toMatch(new RegExp(`MCP server 'svc': the workload identity token in ${tokenFile} expired at \\S+; the platform that writes it has not rotated it`));
    expect(fixture!.requestsTo('/token')).toHaveLength(2);
  });

  it('says what the authorization server refused: a workload token for another audience', async () => {
    await setup({ publicClients: ['workload'] }, () => ['grant_type = "jwt_bearer"', 'client_id = "workload"', `assertion_file = "${path.join(home, 'token')}"`]);
    await writeFile(path.join(home, 'token'), await fixture!.mintWorkloadToken({ audience: 'https://elsewhere.test' }));
    expect(await startupError()).toContain(`MCP server 'svc': the authorization server refused the workload identity token from ${path.join(home, 'token')} (invalid_grant: assertion rejected:`);
    // Refused once, not retried with the same token.
    expect(fixture!.requestsTo('/token')).toHaveLength(1);
  });

  it('after a 401, a workload token the authorization server refuses is reported, not presented twice', async () => {
    await setup({ publicClients: ['workload'] }, () => ['grant_type = "jwt_bearer"', 'client_id = "workload"', `assertion_file = "${path.join(home, 'token')}"`]);
    const tokenFile = path.join(home, 'token');
    await writeFile(tokenFile, await fixture!.mintWorkloadToken());
    expect(echoed(await call('one'))).toBe('echo: one');
    // The server forgets the token and the file now holds one for another audience: the SDK's
    // re-authorization after the 401 is refused once, and that is what the user sees.
    fixture!.rejectIssuedAccessTokens();
    await writeFile(tokenFile, await fixture!.mintWorkloadToken({ audience: 'https://elsewhere.test' }));
    expect(await startupError()).toContain(`MCP server 'svc': the authorization server refused the workload identity token from ${tokenFile} (invalid_grant: assertion rejected:`);
    expect(fixture!.requestsTo('/token')).toHaveLength(2);
  });

  it('enterprise identity assertion: token exchange at the IdP (discovered from its issuer), then jwt-bearer with the ID-JAG', async () => {
    const f = await setup({ preRegistered: { clientId: 'corp-mcp', clientSecret: 'corp-secret' }, idp: { clientId: 'idp-client', mcpClientId: 'corp-mcp' } }, (fx) => [
      'grant_type = "identity_assertion"',
      'client_id = "corp-mcp"',
      'client_secret_env_var = "CORP_SECRET"',
      '[mcp_servers.svc.oauth.idp]',
      `issuer = "${fx.idpIssuer}"`,
      'client_id = "idp-client"',
      `subject_token_file = "${path.join(home, 'id-token')}"`,
    ]);
    await writeFile(path.join(home, 'id-token'), await f.mintIdToken('alice@corp.test'));
    const r = await call('for alice', { CORP_SECRET: 'corp-secret' });
    expect(r.stderr).toBe('');
    expect(echoed(r)).toBe('echo: for alice');
    const [exchange] = f.requestsTo('/idp/token');
    expect(exchange!.params).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: f.issuer,
      resource: f.mcpUrl,
      client_id: 'idp-client',
    });
    const [grant] = f.requestsTo('/token');
    expect(grant!.params.grant_type).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(grant!.authorization).toBe(`Basic ${Buffer.from('corp-mcp:corp-secret').toString('base64')}`);
    expect(f.stats).toMatchObject({ tokenExchanges: 1, jwtBearerGrants: 1 });
  });

  it('an identity token the IdP refuses fails the server with what to check', async () => {
    const f = await setup({ preRegistered: { clientId: 'corp-mcp', clientSecret: 'corp-secret' }, idp: { clientId: 'idp-client', mcpClientId: 'corp-mcp' } }, (fx) => [
      'grant_type = "identity_assertion"',
      'client_id = "corp-mcp"',
      'client_secret_env_var = "CORP_SECRET"',
      `idp = { token_endpoint = "${fx.idpIssuer}/token", client_id = "idp-client", subject_token_env_var = "ID_TOKEN" }`,
    ]);
    expect(await startupError({ CORP_SECRET: 'corp-secret', ID_TOKEN: 'not-a-jwt' })).toContain("MCP server 'svc': the identity provider did not issue an identity assertion (invalid_grant: ID token rejected:");
    expect(f.stats.jwtBearerGrants).toBe(0);
  });

  it.each([
    [['grant_type = "client_credentials"', 'client_id = "svc"'], 'oauth.grant_type = "client_credentials" needs a client secret (oauth.client_secret_env_var or oauth.client_secret_file) or a private key (oauth.private_key_file)'],
    [['grant_type = "jwt_bearer"', 'client_id = "w"'], 'oauth.grant_type = "jwt_bearer" needs oauth.assertion_file (the workload identity token file)'],
    [['grant_type = "identity_assertion"', 'client_id = "c"'], 'oauth.grant_type = "identity_assertion" needs an oauth.idp table'],
    [['grant_type = "client_credentials"', 'client_id = "svc"', 'client_secret_file = "relative/secret"'], 'oauth.client_secret_file must be an absolute path (or start with ~/), got "relative/secret"'],
    [['client_id = "svc"', 'client_secret_env_var = "UNSET_SECRET"'], "Environment variable UNSET_SECRET for MCP server 'svc' is not set"],
  ])('a misconfigured kind fails that server with the key named: %j', async (lines, text) => {
    await setup({}, () => lines);
    expect(await startupError()).toContain(text);
  });
});
