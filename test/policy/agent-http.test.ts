// The policy matrix on `switchboard mcp-server --http`: the built CLI with [server_auth] on the real
// OAuth fixture (rules, limits, the audit trail, the ceilings of codex arguments), approvals under
// `untrusted`, the fake model server answering the agent's turns, spans exported to a loopback OTLP
// receiver. Every cell of the agent server's roads that applies over HTTP is checked here.
import { afterAll, beforeAll, describe } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { AUDIENCE, startCeilingServer, type CeilingServer } from '../agent-server/ceiling-server.js';
import { roads, SLICES } from './policy-matrix.js';
import { runMatrix, type Target } from './policy-run.js';
import { LIMITS, SCOPE } from './policy-servers.js';
import { AGENT_NAMES, AGENT_RULES, httpTarget } from './policy-targets.js';
import { agentProbes } from './probes-agent.js';
import { boundProbes } from './probes-bound.js';
import { doorProbes } from './probes-door.js';

let model: FakeModelServer;
let receiver: OtlpReceiver;
let server: CeilingServer;
let target: Target;

beforeAll(async () => {
  [model, receiver] = await Promise.all([startFakeModelServer(), startOtlpReceiver()]);
  server = await startCeilingServer(model, {
    toml: [`required_scopes = ["${SCOPE}"]`, `limits = { requests_per_minute = ${LIMITS.requestsPerMinute}, concurrent_calls = ${LIMITS.concurrentCalls} }`, AGENT_RULES].join('\n'),
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' },
    args: ['-c', 'approval_policy="untrusted"'],
  });
  target = httpTarget('mcp-server', { url: server.url, home: server.home, audience: AUDIENCE }, AGENT_NAMES, server.fixture, receiver);
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await model?.close();
});

describe('policy matrix: mcp-server --http', () => {
  runMatrix(roads(SLICES['agent-http']), () => target, [agentProbes(() => model), doorProbes, boundProbes]);
});
