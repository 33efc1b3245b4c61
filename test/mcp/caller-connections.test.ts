// The connection manager acting as each caller (identity = "caller", token exchange) against the real
// OAuth fixture: one connection per (caller, server), never shared. Callers interleaved under
// concurrency each reach the upstream as themselves; idle connections are closed, and the
// reconnections stay with their caller (reusing that caller's exchanged token, not anyone else's);
// a request with no caller is refused; a connection holding a resource subscription is not idle, and
// subscribes again in a new upstream session or passes its subscriptions to its caller's next one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpServerConfig, type McpServerConfig } from '../../src/config/index.js';
import { CallerIdentities } from '../../src/mcp-client/oauth/index.js';
import { createDefaultClientFactory, McpConnectionManager, TrustedServers } from '../../src/mcp/index.js';
import { nullLogger, Secret } from '../../src/util/index.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { NOTES_URI } from '../fixtures/oauth-fixture-resource.js';
import { presentedTokens } from '../gateway/caller-harness.js';

const SECRET = 'gateway-secret-for-the-manager-test';

describe('McpConnectionManager with identity = "caller"', () => {
  let fixture: OAuthFixture;
  let manager: McpConnectionManager;
  let identities: CallerIdentities;
  let team: McpServerConfig;

  beforeAll(async () => {
    fixture = await startOAuthFixture({ jwt: { audience: 'https://gateway.example.test/mcp' }, preRegistered: { clientId: 'gw', clientSecret: SECRET }, updatableResource: true });
    team = parseMcpServerConfig('team', {
      url: fixture.mcpUrl,
      identity: 'caller',
      token_exchange: { token_endpoint: `${fixture.issuer}/token`, resource: fixture.mcpUrl, client_id: 'gw', client_secret_env_var: 'GW_SECRET' },
    }).config;
    identities = new CallerIdentities({ servers: { team }, logger: nullLogger, env: { GW_SECRET: SECRET }, store: null, endpointUrl: () => 'http://127.0.0.1:1/mcp' });
    manager = new McpConnectionManager(
      { servers: { team }, trusted: new TrustedServers([]), callers: { idleMs: 300 } },
      { createClient: createDefaultClientFactory({ logger: nullLogger, environments: {} }), logger: nullLogger, identities },
    );
  });
  afterAll(async () => {
    await manager?.close();
    await fixture?.close();
  });

  const caller = async (sub: string) => ({ key: `${fixture.issuer}#${sub}`, subject: sub, token: new Secret(await fixture.mintAccessToken({ sub, client_id: `cli-${sub}` })) });
  const whoami = async (c: Awaited<ReturnType<typeof caller>>) => ((await manager.callServerTool('team', 'whoami', {}, { caller: c })).structuredContent as { subject: string }).subject;
  const connections = () => manager.status().find((s) => s.name === 'team')?.caller_connections;

  it('keeps callers apart under concurrency and after idle eviction', async () => {
    const people = await Promise.all(['ann', 'ben', 'cat', 'dan'].map(caller));
    const round = () => Promise.all(Array.from({ length: 40 }, (_, i) => people[i % 4]!).map(async (c) => [c.subject, await whoami(c)]));
    for (const [asked, got] of await round()) expect(got).toBe(asked);
    // One per caller at most (one that finished early may already be closed as idle: the machine may be slow).
    expect(connections()).toBeGreaterThan(0);
    expect(connections()).toBeLessThanOrEqual(4);
    // Nothing runs: the idle connections close.
    await expect.poll(connections, { timeout: 10_000 }).toBe(0);
    const exchanged = people.map((c) => identities.exchangesFor('team', c.key));
    expect(exchanged).toEqual([1, 1, 1, 1]);
    // Reconnected in the reverse order: each still itself, on its own kept token.
    people.reverse();
    for (const [asked, got] of await round()) expect(got).toBe(asked);
    expect(people.map((c) => identities.exchangesFor('team', c.key))).toEqual([1, 1, 1, 1]);
    expect(connections()).toBeGreaterThan(0);
    expect(new Set(presentedTokens(fixture).map((t) => fixture.subjectOf(t)))).toEqual(new Set(['ann', 'ben', 'cat', 'dan']));
  }, 60_000);

  it('keeps a connection that holds a subscription past its idle time, until it unsubscribes', async () => {
    const eve = await caller('eve');
    const touch = async () => JSON.stringify((await manager.callServerTool('team', 'touch_notes', {}, { caller: eve })).content);
    await manager.subscribe('team', NOTES_URI, { caller: eve });
    // The others' connections close as idle; eve's, holding her subscription, stays four idle times (300 ms) on.
    await expect.poll(connections, { timeout: 10_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 1_200));
    expect(connections()).toBe(1);
    expect(await touch()).toContain('touched');
    await manager.unsubscribe('team', NOTES_URI, { caller: eve });
    expect(await touch()).toContain('not subscribed');
    await expect.poll(connections, { timeout: 10_000 }).toBe(0);
  }, 30_000);

  it('subscribes again in a new upstream session when the old one expired', async () => {
    const fay = await caller('fay');
    const touch = async () => JSON.stringify((await manager.callServerTool('team', 'touch_notes', {}, { caller: fay })).content);
    const sessions = () => fixture.requestsTo('/mcp').filter((r) => r.body.includes('"initialize"') && fixture.subjectOf(r.authorization!.replace(/^Bearer /, '')) === 'fay').length;
    await manager.subscribe('team', NOTES_URI, { caller: fay });
    expect(sessions()).toBe(1);
    // The upstream restarts: fay's next request gets 404, her connection opens a new session and subscribes there.
    await fixture.forgetMcpSessions();
    await expect.poll(touch, { timeout: 10_000 }).toContain('touched');
    expect(sessions()).toBe(2);
    await manager.unsubscribe('team', NOTES_URI, { caller: fay });
    expect(await touch()).toContain('not subscribed');
  }, 30_000);

  it('passes the subscriptions of a connection that was lost to that caller\'s next connection', async () => {
    const gus = await caller('gus');
    const touch = async (c: typeof gus) => JSON.stringify((await manager.callServerTool('team', 'touch_notes', {}, { caller: c })).content);
    const sessions = () => fixture.requestsTo('/mcp').filter((r) => r.body.includes('"initialize"') && fixture.subjectOf(r.authorization!.replace(/^Bearer /, '')) === 'gus').length;
    await manager.subscribe('team', NOTES_URI, { caller: gus });
    // The upstream rejects gus's exchanged token, and the token he now presents has expired: no new
    // exchange, so his connection fails to authenticate and is dropped.
    fixture.rejectIssuedAccessTokens();
    const expired = { ...gus, token: new Secret(await fixture.mintAccessToken({ sub: 'gus', client_id: 'cli-gus' }, { expiresInSec: -60 })) };
    await expect(touch(expired)).rejects.toMatchObject({ code: 'auth_required' });
    // Every connection gone (the others' closed as idle): gus's, which held a subscription, was dropped.
    await expect.poll(connections, { timeout: 10_000 }).toBe(0);
    // With a good token again, his next connection (a new upstream session) is subscribed as the lost one was.
    expect(await touch(await caller('gus'))).toContain('touched');
    expect(sessions()).toBe(2);
    await manager.unsubscribe('team', NOTES_URI, { caller: gus });
  }, 30_000);

  it('refuses a request with no caller instead of acting as the operator', async () => {
    await expect(manager.callServerTool('team', 'whoami', {})).rejects.toMatchObject({ code: 'caller_required' });
  });

  it('refuses a reload that changes a server acting as each caller, and changes nothing', async () => {
    const changed = { ...team, token_exchange: { ...team.token_exchange!, scopes: ['more'] } };
    expect(() => manager.reload({ team: changed })).toThrow(/acts as each caller \(identity = "caller"\): adding, removing or changing it takes a restart/);
    expect(() => manager.reload({})).toThrow(/takes a restart/);
    const ann = await caller('ann');
    expect(await whoami(ann)).toBe('ann');
  });
});
