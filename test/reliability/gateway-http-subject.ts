// The gateway with several clients as a fault-matrix subject: the built CLI `switchboard serve --http`
// in a temp home, with GATEWAY_CLIENTS SDK v2 clients over Streamable HTTP sharing its one pool of
// upstreams. Every client must see the same startup outcomes and status lines; calls take turns
// across the clients; closing checks that every client is still served, then stops the gateway
// (SIGTERM) and checks nothing is left below it.
import { isDeepStrictEqual } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { requireBuild } from '../support/mcp-server-harness.js';
import { descendants } from '../support/process-tree.js';
import { removeTree } from '../support/temp.js';
import { spawnServe } from '../gateway/serve-process.js';
import { gatewayHome, GatewayWatch, leftBehind } from './gateway-watch.js';
import type { FaultSubject } from './subjects.js';

export const GATEWAY_CLIENTS = 4;
/** How long a status line may take to reach the last client after the first. */
const SPREAD_MS = 5_000;

export const gatewayHttpSubject: FaultSubject = {
  name: `gateway ×${GATEWAY_CLIENTS}`,
  async start(tables, options = {}) {
    requireBuild();
    const { home, logFile, env } = await gatewayHome(tables, options, 'sb-rel-gwh-');
    const serve = await spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth'], { env, cwd: home });
    const servers = Object.keys(tables);
    const watches: GatewayWatch[] = [];
    try {
      await Promise.all(
        Array.from({ length: GATEWAY_CLIENTS }, async (_, i) => {
          const watch = new GatewayWatch(new Client({ name: `fault-matrix-${i}`, version: '1.0.0' }, { capabilities: {} }), servers);
          await watch.client.connect(new StreamableHTTPClientTransport(new URL(serve.url)), { timeout: 30_000 });
          watches.push(watch);
          void watch.relist();
        }),
      );
    } catch (err) {
      await serve.stop();
      throw err;
    }
    let turn = 0;
    const next = () => watches[turn++ % watches.length]!;

    return {
      logFile,
      async startup(server, { skip = 0, timeoutMs = 30_000 } = {}) {
        const seen = await Promise.all(watches.map((w) => w.startup(server, skip, timeoutMs)));
        if (!seen.every((o) => isDeepStrictEqual(o, seen[0]))) throw new Error(`the clients saw different startup outcomes #${skip + 1} for ${server}: ${JSON.stringify(seen)}`);
        return seen[0]!;
      },
      failureLines: (server) => [...(watches[0]!.failures.get(server) ?? [])],
      call: (server, tool, args, { timeoutMs } = {}) => next().call(server, tool, args, timeoutMs),
      toolCount: (server) => next().toolCount(server),
      async close() {
        const problems: string[] = [];
        // Every client heard the same status lines (allowing for the time they take to reach all).
        for (const server of servers) {
          const lines = () => watches.map((w) => w.failures.get(server) ?? []);
          const deadline = Date.now() + SPREAD_MS;
          while (!lines().every((l) => isDeepStrictEqual(l, lines()[0])) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
          if (!lines().every((l) => isDeepStrictEqual(l, lines()[0]))) problems.push(`the clients heard different status lines for ${server}: ${JSON.stringify(lines())}`);
        }
        // The pool serves every client after the fault.
        const served = await Promise.all(watches.map((w) => w.client.listTools(undefined, { timeout: 60_000 }).then(() => true, () => false)));
        if (!served.every(Boolean)) problems.push(`clients no longer served after the fault: ${served.flatMap((ok, i) => (ok ? [] : [i])).join(', ')}`);
        const below = await descendants(serve.child.pid!);
        await Promise.all(watches.map((w) => w.client.close().catch(() => {})));
        const code = await serve.stop();
        const left = await leftBehind(below);
        if (options.home === undefined) await removeTree(home);
        if (code !== 0) problems.push(`switchboard serve --http exited with ${code}; stderr: ${serve.stderr()}`);
        if (left.length > 0) problems.push(`left running after switchboard serve exited: ${left.map((p) => `${p.pid} ${p.command}`).join('; ')}`);
        if (problems.length > 0) throw new Error(problems.join('\n'));
      },
    };
  },
};
