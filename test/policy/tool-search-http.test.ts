// The policy matrix on `switchboard serve --http --tool-search`: its own tools/list and tools/call
// (search_tools, call_tool, the tools of an always_loaded server) over the upstreams of `serve`
// (pay always loaded, git outside the team's view, the task server deferred), [server_auth] on the
// real OAuth fixture, spans exported to a loopback OTLP receiver.
import { afterAll, beforeAll, describe } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { roads, SLICES } from './policy-matrix.js';
import { runMatrix, type Target } from './policy-run.js';
import { startPolicyServe, type PolicyServe } from './policy-servers.js';
import { AGGREGATE_NAMES, AGGREGATE_RULES, httpTarget, SEARCH_UPSTREAMS } from './policy-targets.js';
import { boundProbes } from './probes-bound.js';
import { doorProbes } from './probes-door.js';
import { toolProbes } from './probes-tools.js';

let fixture: OAuthFixture;
let receiver: OtlpReceiver;
let search: PolicyServe;
let target: Target;

beforeAll(async () => {
  requireBuild();
  fixture = await startOAuthFixture({ jwt: { audience: 'set per token' } });
  receiver = await startOtlpReceiver();
  search = await startPolicyServe({ fixture, receiver, upstreams: SEARCH_UPSTREAMS, rules: AGGREGATE_RULES, args: ['--tool-search'] });
  target = httpTarget('tool-search', search, AGGREGATE_NAMES, fixture, receiver);
}, 90_000);

afterAll(async () => {
  await search?.stop();
  await receiver?.close();
  await fixture?.close();
});

describe('policy matrix: serve --http --tool-search', () => {
  runMatrix(roads(SLICES['tool-search-http']), () => target, [toolProbes, doorProbes, boundProbes]);
});
