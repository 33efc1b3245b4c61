// The policy matrix on `switchboard serve --http` (aggregating): the built CLI over real upstream
// processes (two gateway fixtures and the task fixture), [server_auth] on the real OAuth fixture,
// spans exported to a loopback OTLP receiver. Every cell of its roads that applies over HTTP is
// checked here; see policy-table.ts for what each says.
import { afterAll, beforeAll, describe } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { roads, SLICES } from './policy-matrix.js';
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
let target: Target;

beforeAll(async () => {
  requireBuild();
  fixture = await startOAuthFixture({ jwt: { audience: 'set per token' } });
  receiver = await startOtlpReceiver();
  serve = await startPolicyServe({ fixture, receiver, upstreams: AGGREGATE_UPSTREAMS, rules: AGGREGATE_RULES });
  target = httpTarget('serve', serve, AGGREGATE_NAMES, fixture, receiver);
}, 90_000);

afterAll(async () => {
  await serve?.stop();
  await receiver?.close();
  await fixture?.close();
});

describe('policy matrix: serve --http', () => {
  runMatrix(roads(SLICES['serve-http']), () => target, [toolProbes, resourceProbes, doorProbes, boundProbes, viewProbes]);
});
