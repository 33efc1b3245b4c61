// Acting as each caller upstream under load: 50 callers x 20 calls of the OAuth fixture's `whoami`
// through one connection manager, each caller on its own connection with its own exchanged token
// (identity = "caller", token exchange), against the same load on the one shared connection with
// the operator's token (identity = "operator"). Per call p50, RSS growth and upstream connections.
import { performance } from 'node:perf_hooks';
import { parseMcpServerConfig, type McpServerConfig } from '../src/config/index.js';
import { CallerIdentities } from '../src/mcp-client/oauth/index.js';
import { createDefaultClientFactory, McpConnectionManager, TrustedServers } from '../src/mcp/index.js';
import { nullLogger, Secret } from '../src/util/index.js';
import { startOAuthFixture, type OAuthFixture } from '../test/fixtures/oauth-fixture.js';
import { median, row, type BenchContext, type BenchRow } from './bench-types.js';

const CALLERS = 50;
const CALLS = 20;
const SECRET = 'bench-gateway-secret';

interface Load {
  p50: number;
  rssMb: number;
  connections: number;
}

async function load(manager: McpConnectionManager, server: string, callers: ({ key: string; token: Secret } | undefined)[]): Promise<Load> {
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  const ms: number[] = [];
  await Promise.all(
    callers.map(async (caller) => {
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        await manager.callServerTool(server, 'whoami', {}, caller ? { caller } : {});
        ms.push(performance.now() - t0);
      }
    }),
  );
  const status = manager.status().find((s) => s.name === server);
  return { p50: median(ms), rssMb: (process.memoryUsage().rss - rss0) / 2 ** 20, connections: status?.caller_connections ?? (status?.state === 'ready' ? 1 : 0) };
}

function managerFor(server: McpServerConfig, identities?: CallerIdentities): McpConnectionManager {
  return new McpConnectionManager(
    { servers: { [server.name]: server }, trusted: new TrustedServers([]) },
    { createClient: createDefaultClientFactory({ logger: nullLogger, environments: {} }), logger: nullLogger, ...(identities ? { identities } : {}) },
  );
}

async function operatorToken(fixture: OAuthFixture): Promise<string> {
  const res = await fetch(`${fixture.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`gw:${SECRET}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource: fixture.mcpUrl }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const fixture = await startOAuthFixture({ jwt: { audience: 'https://gateway.bench/mcp' }, preRegistered: { clientId: 'gw', clientSecret: SECRET } });
  const operator = managerFor(parseMcpServerConfig('ops', { url: fixture.mcpUrl, http_headers: { Authorization: `Bearer ${await operatorToken(fixture)}` } }).config);
  const team = parseMcpServerConfig('team', {
    url: fixture.mcpUrl,
    identity: 'caller',
    token_exchange: { token_endpoint: `${fixture.issuer}/token`, resource: fixture.mcpUrl, client_id: 'gw', client_secret_env_var: 'GW_SECRET' },
  }).config;
  const identities = new CallerIdentities({ servers: { team }, logger: nullLogger, env: { GW_SECRET: SECRET }, store: null, endpointUrl: () => 'http://127.0.0.1:1/mcp' });
  const perCaller = managerFor(team, identities);
  try {
    const callers = await Promise.all(Array.from({ length: CALLERS }, async (_, i) => ({ key: `${fixture.issuer}#user-${i}`, token: new Secret(await fixture.mintAccessToken({ sub: `user-${i}` })) })));
    ctx.log('operator identity');
    const op = await load(operator, 'ops', Array.from({ length: CALLERS }, () => undefined));
    ctx.log('caller identity');
    const mine = await load(perCaller, 'team', callers);
    const notes = `${CALLERS} callers x ${CALLS} calls; baseline: the same load with operator identity`;
    return [
      row('per-caller identity: call p50 (first calls connect and exchange)', mine.p50, 'ms', { baseline: op.p50, notes }),
      row('per-caller identity: RSS growth over the load', mine.rssMb, 'MiB', { baseline: op.rssMb, notes }),
      row('per-caller identity: upstream connections', mine.connections, 'count', { baseline: op.connections, notes }),
    ];
  } finally {
    await Promise.allSettled([operator.close(), perCaller.close()]);
    await fixture.close();
  }
}
