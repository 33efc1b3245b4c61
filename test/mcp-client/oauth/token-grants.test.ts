// The reusable token requests (what the gateway will call for each caller) against the OAuth
// fixture: token exchange for an ID-JAG at the IdP, jwt-bearer with it and with a workload token,
// client authentication by secret and by private key, a DPoP-bound result, and typed refusals.
import { OAuthError, generateDpopKeyPair, DpopSession } from '@modelcontextprotocol/client';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import {
  TOKEN_TYPES,
  discoverTokenEndpoint,
  exchangeToken,
  jwtBearerGrant,
  requestIdentityAssertion,
  requestToken,
  type TokenEndpoint,
} from '../../../src/mcp-client/oauth/index.js';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';

let fixture: OAuthFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const asEndpoint = (f: OAuthFixture): TokenEndpoint => ({ url: `${f.issuer}/token`, issuer: f.issuer });

describe('token requests without a browser', () => {
  it('identity assertion: exchange an ID token at the IdP, then present the ID-JAG with jwt-bearer', async () => {
    fixture = await startOAuthFixture({ preRegistered: { clientId: 'corp-mcp', clientSecret: 'corp-secret' }, idp: { clientId: 'idp-client', mcpClientId: 'corp-mcp' } });
    const idp = await discoverTokenEndpoint(fixture.idpIssuer);
    expect(idp.url).toBe(`${fixture.idpIssuer}/token`);
    const now = () => 1_000_000;
    const assertion = await requestIdentityAssertion({
      endpoint: idp,
      client: { clientId: 'idp-client' },
      subjectToken: await fixture.mintIdToken('alice@corp.test'),
      audience: fixture.issuer,
      resource: fixture.mcpUrl,
      scope: 'read',
      now,
    });
    expect(assertion.issuedTokenType).toBe(TOKEN_TYPES.idJag);
    expect(assertion.expiresAt).toBe(1_000_000 + 300_000);
    expect(decodeProtectedHeader(assertion.tokens.access_token).typ).toBe('oauth-id-jag+jwt');
    expect(decodeJwt(assertion.tokens.access_token)).toMatchObject({ sub: 'alice@corp.test', aud: fixture.issuer, resource: fixture.mcpUrl, client_id: 'corp-mcp', scope: 'read' });

    const issued = await jwtBearerGrant({
      endpoint: asEndpoint(fixture),
      client: { clientId: 'corp-mcp', clientSecret: 'corp-secret' },
      assertion: assertion.tokens.access_token,
      resource: fixture.mcpUrl,
      scope: 'read',
    });
    expect(issued.tokens).toMatchObject({ token_type: 'Bearer', scope: 'read', expires_in: 3600 });
    expect(fixture.requestsTo('/token')[0]!.authorization).toBe(`Basic ${Buffer.from('corp-mcp:corp-secret').toString('base64')}`);
  });

  it('a general token exchange carries subject, actor, audience and resource; a refusal is the OAuthError the IdP sent', async () => {
    fixture = await startOAuthFixture({ idp: { clientId: 'idp-client', mcpClientId: 'corp-mcp' } });
    const error = await exchangeToken({
      endpoint: { url: `${fixture.idpIssuer}/token` },
      client: { clientId: 'idp-client' },
      subjectToken: 'caller-access-token',
      subjectTokenType: TOKEN_TYPES.accessToken,
      actorToken: 'gateway-token',
      audience: 'https://upstream.test',
      resource: 'https://upstream.test/mcp',
    }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).code).toBe('invalid_request');
    expect(fixture.requestsTo('/idp/token')[0]!.params).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: 'caller-access-token',
      subject_token_type: TOKEN_TYPES.accessToken,
      actor_token: 'gateway-token',
      actor_token_type: TOKEN_TYPES.accessToken,
      audience: 'https://upstream.test',
      resource: 'https://upstream.test/mcp',
      client_id: 'idp-client',
    });
  });

  it('jwt-bearer with a workload token, authenticated by a private key, bound to a DPoP key', async () => {
    fixture = await startOAuthFixture({ privateKeyClient: { clientId: 'signer' }, dpop: {} });
    const dpop = await DpopSession.create({ keyPair: await generateDpopKeyPair() });
    const issued = await jwtBearerGrant({
      endpoint: asEndpoint(fixture),
      client: { clientId: 'signer', privateKey: { pem: fixture.grants!.clientKeyPem, algorithm: 'ES256' } },
      assertion: await fixture.mintWorkloadToken(),
      dpop,
    });
    expect(issued.tokens.token_type).toBe('DPoP');
    const [request] = fixture.requestsTo('/token');
    expect(request!.params.client_assertion_type).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    expect(fixture.dpop!.stats.tokenProofs).toBe(1);
  });

  it('requestToken with client_credentials: an expired workload token or a bad secret is an OAuthError with its code', async () => {
    fixture = await startOAuthFixture({ preRegistered: { clientId: 'svc', clientSecret: 's3cret' }, publicClients: ['workload'] });
    const bad = await requestToken(new URLSearchParams({ grant_type: 'client_credentials' }), { endpoint: asEndpoint(fixture), client: { clientId: 'svc', clientSecret: 'wrong' } }).catch((e: unknown) => e);
    expect((bad as OAuthError).code).toBe('invalid_client');
    const expired = await jwtBearerGrant({ endpoint: asEndpoint(fixture), client: { clientId: 'workload' }, assertion: await fixture.mintWorkloadToken({ expiresInSec: -60 }) }).catch((e: unknown) => e);
    expect((expired as OAuthError).code).toBe('invalid_grant');
    const ok = await requestToken(new URLSearchParams({ grant_type: 'client_credentials' }), { endpoint: asEndpoint(fixture), client: { clientId: 'svc', clientSecret: 's3cret' }, scope: 'a b', now: () => 0 });
    expect(ok).toMatchObject({ tokens: { scope: 'a b' }, expiresAt: 3_600_000, issuedTokenType: undefined });
  });
});
