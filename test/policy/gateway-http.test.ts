// The policy matrix on `switchboard serve --http` (aggregating) and `serve --http --tool-search`: the
// built CLI over real upstream processes (two gateway fixtures and the task fixture), [server_auth]
// on the real OAuth fixture, spans exported to a loopback OTLP receiver. Every cell of these roads
// that applies is checked here; see policy-table.ts for what each says.
import { afterAll, beforeAll, describe } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { roads } from './policy-matrix.js';
import { runMatrix, type Target } from './policy-run.js';
import { startPolicyServe, type PolicyServe } from './policy-servers.js';
import { AGGREGATE_NAMES, AGGREGATE_RULES, AGGREGATE_UPSTREAMS, httpTarget } from './policy-targets.js';
import { boundProbes } from './probes-bound.js';
import { doorProbes } from './probes-door.js';
import { resourceProbes } from './probes-resources.js';
import { toolProbes } from './probes-tools.js';
import { viewProbes } from './probes-view.js';

let fixture: OAuthFixture;
let receiver: OtlpReceiver;
let serve: PolicyServe;
let search: PolicyServe;
const targets: Partial<Record<'serve' | 'tool-search', Target>> = {};

beforeAll(async () => {
  requireBuild();
  fixture = await startOAuthFixture({ jwt: { audience: 'set per token' } });
  receiver = await startOtlpReceiver();
  [serve, search] = await Promise.all([
    startPolicyServe({ fixture, receiver, upstreams: AGGREGATE_UPSTREAMS, rules: AGGREGATE_RULES }),
    startPolicyServe({ fixture, receiver, upstreams: AGGREGATE_UPSTREAMS.map((u) => (u.name === 'pay' ? { ...u, alwaysLoaded: true } : u)), rules: AGGREGATE_RULES, args: ['--tool-search'] }),
  ]);
  targets.serve = httpTarget('serve', serve, AGGREGATE_NAMES, fixture, receiver);
  targets['tool-search'] = httpTarget('tool-search', search, AGGREGATE_NAMES, fixture, receiver);
}, 90_000);

afterAll(async () => {
  await Promise.allSettled([serve?.stop(), search?.stop()]);
  await receiver?.close();
  await fixture?.close();
});

describe('policy matrix: serve --http (aggregating, --tool-search)', () => {
  runMatrix(roads({ surfaces: ['serve', 'tool-search'], transport: 'http' }), (road) => targets[road.surface as 'serve' | 'tool-search']!, [toolProbes, resourceProbes, doorProbes, boundProbes, viewProbes]);
});
