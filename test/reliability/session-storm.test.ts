// Session storms: 500 calls, 16 in flight, through an HTTP upstream that expires its session every 7
// requests and cuts 2% of SSE streams (seeded). Every call succeeds, and the server sees exactly one
// re-initialization per expired session — concurrent failures share one recovery.
import { afterEach, describe, expect, it } from 'vitest';
import { parseMcpServerConfig } from '../../src/config/index.js';
import { createMcpClient, type SessionRecoveredEvent } from '../../src/mcp-client/index.js';
import { createDefaultClientFactory, McpConnectionManager } from '../../src/mcp/index.js';
import { createLogger } from '../../src/util/index.js';
import { fullRun, sliceTitle } from '../support/long-runs.js';
import { killProcessesByMarker } from '../support/process-tree.js';
import { startStormServer, storm, STORM } from './storm-server.js';

const markers: string[] = [];
afterEach(async () => {
  await Promise.all(markers.splice(0).map((m) => killProcessesByMarker(m)));
  logLines = [];
});

const expected = Array.from({ length: STORM.calls }, (_, i) => `storm ${i}`);
const textOf = (r: { content: unknown }) => ((r.content as { text?: string }[])[0]?.text ?? '');
let logLines: string[] = [];
const logger = createLogger((line) => logLines.push(line), { level: 'info' });

describe(sliceTitle('session storm', fullRun ? 2 : 1, 2), { timeout: 180_000 }, () => {
  it(`McpClient: ${STORM.calls} calls, ${STORM.inFlight} in flight, session expiry every ${STORM.expireEvery} requests, ${STORM.dropRate * 100}% dropped SSE streams`, async () => {
    const server = await startStormServer(markers);
    const recovered: SessionRecoveredEvent[] = [];
    const config = parseMcpServerConfig('storm', { url: server.url, tool_timeout_sec: 60 }).config;
    const client = createMcpClient(config, { logger, handlers: { onSessionRecovered: (e) => recovered.push(e) } });
    try {
      await client.connect();
      await client.listTools();
      const { results, ms } = await storm(async (i) => textOf(await client.callTool('echo', { text: `storm ${i}` })));
      const stats = await server.stats();
      console.log(`McpClient storm: ${STORM.calls} calls in ${Math.round(ms)} ms; server: ${JSON.stringify(stats)}; client recoveries: ${recovered.length}`);
      expect(results).toEqual(expected);
      expect(stats.expired).toBeGreaterThanOrEqual(Math.floor(STORM.calls / STORM.expireEvery) - 1);
      expect(stats.dropped).toBeGreaterThan(0);
      // One re-initialization per expired session: the first session plus one per expiry, and the
      // client re-initialized exactly that often.
      expect(stats.initializes).toBe(stats.expired + 1);
      expect(logLines.filter((l) => l.includes("MCP server 'storm': session expired, re-initializing"))).toHaveLength(stats.expired);
      // A recovery is reported (and the tools re-listed) at most once, by the operation that did it.
      expect(recovered.length).toBeGreaterThan(0);
      expect(recovered.length).toBeLessThanOrEqual(stats.expired);
    } finally {
      await client.close();
    }
  });

  // `npm test` takes the storm through McpClient; the whole run adds it through the manager.
  if (fullRun) {
    it(`manager: ${STORM.calls} calls by model-visible name through the same kind of upstream`, async () => {
      const server = await startStormServer(markers);
      const config = parseMcpServerConfig('storm', { url: server.url, tool_timeout_sec: 60 }).config;
      const manager = new McpConnectionManager({ servers: { storm: config } }, { createClient: createDefaultClientFactory({ logger, environments: {} }), logger });
      try {
        await manager.waitForStartup();
        const { results, ms } = await storm(async (i) => textOf(await manager.callTool('mcp__storm__echo', { text: `storm ${i}` })));
        const stats = await server.stats();
        console.log(`manager storm: ${STORM.calls} calls in ${Math.round(ms)} ms; server: ${JSON.stringify(stats)}`);
        expect(results).toEqual(expected);
        expect(stats.initializes).toBe(stats.expired + 1);
        expect(manager.status()[0]).toMatchObject({ name: 'storm', state: 'ready' });
      } finally {
        await manager.close();
      }
    });
  }
});
