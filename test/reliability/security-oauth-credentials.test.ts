// Security: the upstream credentials of every OAuth kind (client secrets, private keys and the
// assertions they sign, workload and identity tokens, ID-JAGs, access and refresh tokens, DPoP private
// keys) never reach the log file, OTLP traces, the gateway's audit trail, snapshots and caches under
// the home, the CLI's output, or a stdio server's environment — checked end to end through the built
// CLI (`mcp call`, `mcp status`, `serve --http`) against the OAuth fixture at debug log level.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runCliProcess, type CliResult } from '../support/cli.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { removeTree, tempDir } from '../support/temp.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { freePort } from '../support/free-port.mjs';
import { spawnServe, type ServeProcess } from '../gateway/serve-process.js';
import { CHAOS, NODE } from './fault-cases.js';

const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;
/** The pre-registered client's secret: read from a variable by one server, from a 0600 file by another. */
const CLIENT_SECRET = secret('client-secret');

let fixture: OAuthFixture;
let home: string;
let secrets: string;
let receiver: OtlpReceiver;
let idToken: string;
let workloadToken: string;
const env = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: home,
  SWITCHBOARD_HOME: home,
  SVC_SECRET: CLIENT_SECRET,
  CORP_ID_TOKEN: idToken,
  SWITCHBOARD_LOG_LEVEL: 'debug',
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_BSP_SCHEDULE_DELAY: '50',
});
const cli = (args: string[]): Promise<CliResult> => runCliProcess(args, { home, env: env() });

/** Every file under `dir` but the credential store and the secret files themselves, as text. */
async function homeFiles(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (entry.name === '.credentials.json' || entry.name === 'config.toml') continue;
    out[path.relative(dir, file)] = await readFile(file, 'latin1');
  }
  return out;
}

/** What must never show up: every secret configured and every credential derived from them. */
async function allCredentials(): Promise<string[]> {
  const stored = JSON.parse(await readFile(path.join(home, '.credentials.json'), 'utf8')) as Record<string, { dpop_key?: { jwk: { d: string } } }>;
  const dpopKeys = Object.values(stored).flatMap((e) => (e.dpop_key ? [e.dpop_key.jwk.d] : []));
  const assertions = fixture.requestsTo('/token').flatMap((r) => [r.params.client_assertion, r.params.assertion].filter((x): x is string => !!x));
  const pemBody = fixture.grants!.clientKeyPem.split('\n').filter((l) => l && !l.startsWith('-----')).join('');
  const found = [CLIENT_SECRET, idToken, workloadToken, pemBody, ...dpopKeys, ...assertions, ...fixture.issuedTokens()];
  // The check is only worth something if the run produced each kind of credential.
  expect(dpopKeys.length).toBeGreaterThan(0);
  expect(assertions.length).toBeGreaterThanOrEqual(3);
  expect(fixture.issuedTokens().length).toBeGreaterThanOrEqual(4);
  return found;
}

const leaks = (text: string, credentials: string[]) => credentials.filter((c) => text.includes(c));

describe('security: OAuth credentials of every kind', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
    receiver = await startOtlpReceiver();
    fixture = await startOAuthFixture({
      preRegistered: { clientId: 'corp-mcp', clientSecret: CLIENT_SECRET },
      privateKeyClient: { clientId: 'signer' },
      publicClients: ['workload'],
      idp: { clientId: 'idp-client', mcpClientId: 'corp-mcp' },
      dpop: { nonce: true },
      jwt: {},
    });
    home = await tempDir('sb-oauth-secrets-');
    secrets = await tempDir('sb-oauth-secret-files-');
    workloadToken = await fixture.mintWorkloadToken();
    idToken = await fixture.mintIdToken();
    await writeFile(path.join(secrets, 'key.pem'), fixture.grants!.clientKeyPem, { mode: 0o600 });
    await writeFile(path.join(secrets, 'workload'), workloadToken);
    await writeFile(path.join(secrets, 'corp-secret'), CLIENT_SECRET, { mode: 0o600 });
    const url = () => fixture.mcpUrl;
    await writeFile(
      path.join(home, 'config.toml'),
      [
        'mcp_oauth_credentials_store = "file"',
        '[mcp_servers.cc]',
        `url = "${url()}"`,
        `oauth = { grant_type = "client_credentials", client_id = "corp-mcp", client_secret_env_var = "SVC_SECRET", dpop = true }`,
        '[mcp_servers.signed]',
        `url = "${url()}"`,
        `oauth = { grant_type = "client_credentials", client_id = "signer", private_key_file = "${path.join(secrets, 'key.pem')}" }`,
        '[mcp_servers.wif]',
        `url = "${url()}"`,
        `oauth = { grant_type = "jwt_bearer", client_id = "workload", assertion_file = "${path.join(secrets, 'workload')}", dpop = true }`,
        '[mcp_servers.corp]',
        `url = "${url()}"`,
        `oauth = { grant_type = "identity_assertion", client_id = "corp-mcp", client_secret_file = "${path.join(secrets, 'corp-secret')}", idp = { issuer = "${fixture.idpIssuer}", client_id = "idp-client", subject_token_env_var = "CORP_ID_TOKEN" } }`,
        '[mcp_servers.local]',
        `command = ${JSON.stringify(NODE)}`,
        `args = [${JSON.stringify(CHAOS)}, "--process-tools"]`,
        '',
      ].join('\n'),
    );
  });

  afterAll(async () => {
    await fixture?.close();
    await receiver?.close();
    if (home) await removeTree(home);
    if (secrets) await removeTree(secrets);
  });

  it('never in the log, traces, output, files under the home, or a stdio server environment', async () => {
    const runs: CliResult[] = [];
    for (const server of ['cc', 'signed', 'wif', 'corp']) {
      const r = await cli(['mcp', 'call', `mcp__${server}__echo`, '--args', '{"text":"hello"}']);
      expect(r.code, `${server}: ${r.stderr}`).toBe(0);
      runs.push(r);
    }
    const whoami = await cli(['mcp', 'call', 'mcp__local__whoami']);
    expect(whoami.code, whoami.stderr).toBe(0);
    runs.push(whoami, await cli(['mcp', 'status', '--json']), await cli(['mcp', 'tools', '--json']));

    const credentials = await allCredentials();
    const files = await homeFiles(home);
    expect(Object.keys(files).some((f) => f.startsWith('log'))).toBe(true);
    expect(files[path.join('log', 'switchboard.log')]).toMatch(/obtained OAuth tokens/);
    for (const [file, text] of Object.entries(files)) expect(leaks(text, credentials), file).toEqual([]);
    for (const [i, r] of runs.entries()) expect(leaks(r.stdout + r.stderr, credentials), `run ${i}`).toEqual([]);
    // Traces were exported (so a credential in a span attribute would have been seen).
    await expect.poll(() => receiver.spans.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(leaks(JSON.stringify(receiver.spans), credentials)).toEqual([]);
    const childEnv = (JSON.parse((JSON.parse(whoami.stdout) as { content: { text: string }[] }).content[0]!.text) as { env: Record<string, string> }).env;
    expect(leaks(JSON.stringify(childEnv), credentials)).toEqual([]);
    expect(childEnv.SVC_SECRET).toBeUndefined();
    expect(childEnv.CORP_ID_TOKEN).toBeUndefined();
  });

  it('never in the gateway audit trail nor its output when `serve --http` calls these upstreams for a caller', async () => {
    const port = await freePort();
    const gateway = `http://127.0.0.1:${port}/mcp`;
    const config = await readFile(path.join(home, 'config.toml'), 'utf8');
    await writeFile(path.join(home, 'config.toml'), `${config}[server_auth]\nissuer = "${fixture.issuer}"\naudience = "${gateway}"\n`);
    const work = path.join(home, 'work');
    await mkdir(work, { recursive: true });
    await writeFile(path.join(secrets, 'operator-token'), `${secret('operator')}\n`, { mode: 0o600 });
    const serve: ServeProcess = await spawnServe(['--http', `127.0.0.1:${port}`, '--token-file', path.join(secrets, 'operator-token')], { env: env(), cwd: work });
    const client = new Client({ name: 'caller', version: '1.0.0' });
    try {
      const callerToken = await fixture.mintAccessToken({ sub: 'ci-bot', client_id: 'ci' }, { audience: gateway });
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway), { requestInit: { headers: { authorization: `Bearer ${callerToken}` } } }));
      for (const server of ['cc', 'signed', 'wif', 'corp']) {
        const result = await client.callTool({ name: `mcp__${server}__echo`, arguments: { text: 'via the gateway' } });
        expect((result.content as { text: string }[])[0]!.text).toBe('echo: via the gateway');
      }
      const audit = path.join(home, 'log', 'audit.jsonl');
      await expect.poll(async () => (existsSync(audit) ? await readFile(audit, 'utf8') : ''), { timeout: 10_000 }).toContain('mcp__corp__echo');
      const credentials = await allCredentials();
      expect(leaks(await readFile(audit, 'utf8'), credentials)).toEqual([]);
      // Stopped before its home is read: a running gateway rewrites its tool snapshots (a
      // temporary file, then a rename), and a file read mid-rename is gone.
      await client.close();
      expect(await serve.stop()).toBe(0);
      expect(leaks(serve.stdout() + serve.stderr(), credentials)).toEqual([]);
      for (const [file, text] of Object.entries(await homeFiles(home))) expect(leaks(text, credentials), file).toEqual([]);
    } finally {
      await client.close().catch(() => {});
      await serve.stop();
    }
  });
});
