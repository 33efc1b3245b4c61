import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../../config/index.js';
import { resolveOAuthCredential } from './credential-config.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function file(name: string, content: string, mode = 0o600): string {
  dir ??= mkdtempSync(path.join(os.tmpdir(), 'sb-cred-'));
  const target = path.join(dir, name);
  writeFileSync(target, content, { mode });
  return target;
}

const server = (oauth: Record<string, unknown>) => parseMcpServerConfig('svc', { url: 'https://svc.test/mcp', oauth }).config;
const resolve = (oauth: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => resolveOAuthCredential(server(oauth), env);
const problem = (oauth: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => {
  try {
    resolve(oauth, env);
    return '';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('resolveOAuthCredential', () => {
  it('reads a private key in any PEM form as PKCS#8 and infers its algorithm from the key type', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey.export({ type: 'sec1', format: 'pem' }).toString();
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const cases: [string, string][] = [
      [rsa, 'RS256'],
      [p384, 'ES384'],
      [ed, 'EdDSA'],
    ];
    for (const [pem, alg] of cases) {
      const { grant, client } = resolve({ grant_type: 'client_credentials', client_id: 'c', private_key_file: file(`k-${alg}.pem`, pem) });
      expect(grant.kind).toBe('client_credentials');
      expect(client.privateKey?.algorithm).toBe(alg);
      expect(client.privateKey?.pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    }
    const rsaPss = resolve({ grant_type: 'client_credentials', client_id: 'c', private_key_file: file('k.pem', rsa), private_key_alg: 'PS384' });
    expect(rsaPss.client.privateKey?.algorithm).toBe('PS384');
  });

  it('reads secrets from a variable or an owner-only file, never both; the file is trimmed', () => {
    expect(resolve({ grant_type: 'client_credentials', client_id: 'c', client_secret_file: file('s', ' s3cret \n') }).client.clientSecret).toBe('s3cret');
    expect(resolve({ client_id: 'c', client_secret_env_var: 'S' }, { S: 'v' })).toMatchObject({ grant: { kind: 'authorization_code' }, client: { clientId: 'c', clientSecret: 'v' }, dpop: false });
    expect(problem({ client_id: 'c', client_secret_env_var: 'S', client_secret_file: '/x' }, { S: 'v' })).toBe("MCP server 'svc': set oauth.client_secret_env_var or oauth.client_secret_file, not both");
    const open = file('open', 'secret', 0o640);
    expect(problem({ client_id: 'c', client_secret_file: open })).toBe(`MCP server 'svc': oauth.client_secret_file ${open} is accessible by other users (mode 0640); run \`chmod 600 ${open}\``);
    expect(problem({ client_id: 'c', client_secret_file: file('empty', '\n') })).toMatch(/oauth.client_secret_file .* is empty$/);
    expect(problem({ client_secret_env_var: 'S' }, { S: 'v' })).toBe("MCP server 'svc': a client secret or private key needs oauth.client_id");
    expect(problem({ client_id: 'c', client_secret_env_var: 'S', private_key_file: file('k', 'x') }, { S: 'v' })).toBe("MCP server 'svc': set a client secret or oauth.private_key_file, not both");
    expect(problem({ grant_type: 'client_credentials', client_id: 'c', private_key_file: file('bad.pem', 'not a key') })).toMatch(/^MCP server 'svc': oauth.private_key_file does not hold a PEM private key/);
  });

  it('names what an identity assertion lacks, and takes the subject token from a file or a variable', () => {
    const base = { grant_type: 'identity_assertion', client_id: 'c' };
    expect(problem({ ...base, idp: { client_id: 'i', subject_token_file: '/t' } })).toBe(
      'MCP server \'svc\': oauth.grant_type = "identity_assertion" needs oauth.idp.token_endpoint or oauth.idp.issuer',
    );
    expect(problem({ ...base, idp: { issuer: 'https://idp.test', subject_token_file: '/t' } })).toBe('MCP server \'svc\': oauth.grant_type = "identity_assertion" needs oauth.idp.client_id');
    expect(problem({ ...base, idp: { issuer: 'https://idp.test', client_id: 'i' } })).toBe(
      'MCP server \'svc\': oauth.grant_type = "identity_assertion" needs oauth.idp.subject_token_file or oauth.idp.subject_token_env_var',
    );
    const fromEnv = resolve({ ...base, dpop: true, idp: { issuer: 'https://idp.test', client_id: 'i', subject_token_env_var: 'ID' } }, { ID: 'id-token' });
    expect(fromEnv).toMatchObject({
      dpop: true,
      grant: { kind: 'identity_assertion', idp: { issuer: 'https://idp.test', client: { clientId: 'i' }, subjectToken: { value: 'id-token' }, subjectTokenType: 'urn:ietf:params:oauth:token-type:id_token' } },
    });
    const fromFile = resolve({ ...base, idp: { token_endpoint: 'https://idp.test/token', client_id: 'i', subject_token_file: '~/id-token' } });
    expect(fromFile.grant).toMatchObject({ idp: { tokenEndpoint: 'https://idp.test/token', subjectToken: { file: path.join(os.homedir(), 'id-token') } } });
  });

  it('rejects config values of the wrong type when config.toml is read', () => {
    expect(() => server({ dpop: 'yes' })).toThrow('oauth.dpop must be true or false');
    expect(() => server({ private_key_alg: 'HS256' })).toThrow('oauth.private_key_alg must be one of RS256');
    expect(() => server({ idp: 'https://idp.test' })).toThrow('oauth.idp must be a table');
    // A secret is never written in config.toml itself.
    expect(() => server({ client_id: 'c', client_secret: 'hunter2' })).toThrow(
      'oauth.client_secret is not supported; put the secret in an environment variable (oauth.client_secret_env_var) or a 0600 file (oauth.client_secret_file)',
    );
    expect(() => server({ private_key: '-----BEGIN PRIVATE KEY-----' })).toThrow('oauth.private_key is not supported; put the key in a 0600 file and set oauth.private_key_file');
  });
});
