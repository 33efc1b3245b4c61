// The policy matrix over stdio: `serve` (aggregating, --transparent, --tool-search) and `mcp-server`
// as the built CLI serving one client on stdin/stdout, in each revision, over real upstream processes
// with tool filters; spans exported to a loopback OTLP receiver. Over stdio the one client is the
// local user, so only the tool filter and the span apply (see policy-matrix.ts). One process tree
// per revision of one surface at a time, shared by its cells.
import { afterAll, beforeAll, describe } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { makeServerHome, requireBuild, type ServerHome } from '../support/mcp-server-harness.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { removeTree } from '../support/temp.js';
import { roads, SLICES, type Road } from './policy-matrix.js';
import { runMatrix } from './policy-run.js';
import { policyHome, type PolicyHome, type UpstreamSpec } from './policy-servers.js';
import type { Era, Surface } from './policy-table.js';
import {
  AGENT_NAMES,
  AGGREGATE_NAMES,
  AGGREGATE_UPSTREAMS,
  SEARCH_UPSTREAMS,
  stdioTarget,
  TRANSPARENT_NAMES,
  TRANSPARENT_TASK_NAMES,
  TRANSPARENT_TASK_UPSTREAMS,
  TRANSPARENT_UPSTREAMS,
  type StdioTarget,
} from './policy-targets.js';
import { doorProbes } from './probes-door.js';
import { toolProbes } from './probes-tools.js';
import { viewProbes } from './probes-view.js';

let receiver: OtlpReceiver;
let model: FakeModelServer;
let agentHome: ServerHome;
const homes: Record<string, PolicyHome> = {};
const HOMES: Record<string, UpstreamSpec[]> = {
  serve: AGGREGATE_UPSTREAMS,
  'tool-search': SEARCH_UPSTREAMS,
  transparent: TRANSPARENT_UPSTREAMS,
  'transparent tasks': TRANSPARENT_TASK_UPSTREAMS,
};

beforeAll(async () => {
  requireBuild();
  [receiver, model] = await Promise.all([startOtlpReceiver(), startFakeModelServer()]);
  for (const [name, upstreams] of Object.entries(HOMES)) homes[name] = await policyHome({ receiver, upstreams });
  agentHome = await makeServerHome(model);
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(homes).map((h) => removeTree(h.home)));
  await agentHome?.cleanup();
  await model?.close();
  await receiver?.close();
});

/** The targets of one surface in one revision: the transparent surface has a proxy of the task server for the task roads. */
function targetsOf(surface: Surface): { main: () => StdioTarget; tasks?: () => StdioTarget } {
  const of = (home: string, args: string[], names: typeof AGGREGATE_NAMES) => {
    let t: StdioTarget | undefined;
    return () => (t ??= stdioTarget(surface, { args, env: homes[home]!.env, cwd: homes[home]!.work }, names, receiver));
  };
  switch (surface) {
    case 'serve':
      return { main: of('serve', ['serve'], AGGREGATE_NAMES) };
    case 'tool-search':
      return { main: of('tool-search', ['serve', '--tool-search'], AGGREGATE_NAMES) };
    case 'transparent':
      return { main: of('transparent', ['serve', '--transparent'], TRANSPARENT_NAMES), tasks: of('transparent tasks', ['serve', '--transparent'], TRANSPARENT_TASK_NAMES) };
    case 'mcp-server': {
      let t: StdioTarget | undefined;
      return { main: () => (t ??= stdioTarget(surface, { args: ['mcp-server'], env: { ...agentHome.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' }, cwd: agentHome.work }, AGENT_NAMES, receiver)) };
    }
  }
}

const isTaskRoad = (road: Road) => road.row.kind === 'task-call' || road.row.road.startsWith('tasks/');

for (const surface of new Set(roads(SLICES.stdio).map((r) => r.surface))) {
  describe(`policy matrix: ${surface} over stdio`, () => {
    const targets = targetsOf(surface);
    // Both revisions' processes start at once; each serves its cells, then ends.
    beforeAll(async () => {
      await Promise.all((['legacy', 'modern'] as Era[]).flatMap((era) => [targets.main().open(era, 'team'), ...(targets.tasks ? [targets.tasks().open(era, 'team')] : [])]));
    }, 60_000);
    afterAll(async () => {
      await targets.main().closeAll();
      await targets.tasks?.().closeAll();
    });
    const list = roads(SLICES.stdio).filter((r) => r.surface === surface);
    runMatrix(list, (road) => (targets.tasks && isTaskRoad(road) ? targets.tasks() : targets.main()), [toolProbes, doorProbes, viewProbes]);
  });
}
