// The policy matrix on `switchboard serve --http --transparent`: the built CLI as a pure proxy, once
// over the gateway fixture (tools, resources, a template, prompts, logs) and once over the task
// fixture (the task roads: plain and task-augmented calls of filtered and denied tools, tasks/*),
// with [server_auth] on the real OAuth fixture and spans exported to a loopback OTLP receiver.
import { afterAll, beforeAll, describe } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { roads, SLICES, type Road } from './policy-matrix.js';
import { runMatrix, type Target } from './policy-run.js';
import { startPolicyServe, type PolicyServe } from './policy-servers.js';
import { httpTarget, TRANSPARENT_NAMES, TRANSPARENT_RULES, TRANSPARENT_TASK_NAMES, TRANSPARENT_TASK_RULES, TRANSPARENT_TASK_UPSTREAMS, TRANSPARENT_UPSTREAMS } from './policy-targets.js';
import { boundProbes } from './probes-bound.js';
import { doorProbes } from './probes-door.js';
import { resourceProbes } from './probes-resources.js';
import { toolProbes } from './probes-tools.js';
import { viewProbes } from './probes-view.js';

let fixture: OAuthFixture;
let receiver: OtlpReceiver;
let one: PolicyServe;
let tasks: PolicyServe;
let targets: { one: Target; tasks: Target };

/** The task roads go to the proxy of the task server, the others to the proxy of the gateway fixture. */
const isTaskRoad = (road: Road) => road.row.kind === 'task-call' || road.row.road.startsWith('tasks/');

beforeAll(async () => {
  requireBuild();
  fixture = await startOAuthFixture({ jwt: { audience: 'set per token' } });
  receiver = await startOtlpReceiver();
  [one, tasks] = await Promise.all([
    startPolicyServe({ fixture, receiver, upstreams: TRANSPARENT_UPSTREAMS, rules: TRANSPARENT_RULES, args: ['--transparent'] }),
    startPolicyServe({ fixture, receiver, upstreams: TRANSPARENT_TASK_UPSTREAMS, rules: TRANSPARENT_TASK_RULES, args: ['--transparent'] }),
  ]);
  targets = { one: httpTarget('transparent', one, TRANSPARENT_NAMES, fixture, receiver), tasks: httpTarget('transparent', tasks, TRANSPARENT_TASK_NAMES, fixture, receiver) };
}, 90_000);

afterAll(async () => {
  await Promise.allSettled([one?.stop(), tasks?.stop()]);
  await receiver?.close();
  await fixture?.close();
});

describe('policy matrix: serve --http --transparent', () => {
  runMatrix(roads(SLICES['transparent-http']), (road) => (isTaskRoad(road) ? targets.tasks : targets.one), [toolProbes, resourceProbes, doorProbes, boundProbes, viewProbes]);
});
