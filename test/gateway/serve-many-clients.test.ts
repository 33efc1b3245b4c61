// `switchboard serve --http` (the built CLI, default settings) with many clients: 1,000 SDK clients
// that go away without DELETE never lock a new one out, and the upstream still runs once; a client
// that disconnects in the middle of a call has that call cancelled upstream while the other clients'
// calls go on (once the stream has stayed closed past the grace for resuming it, 10 s).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SESSION_STORM_SETTINGS } from '../support/long-runs.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { descendants } from '../support/process-tree.js';
import { RawHttpSession, readSse } from '../support/raw-http-session.js';
import { removeTree, tempDir } from '../support/temp.js';
import { steadyPause, waitFor } from '../support/wait.js';
import { textOf, UPSTREAM_FIXTURE } from './gateway-harness.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

const CALL = { timeout: 60_000 };

let home: string;
beforeAll(async () => {
  requireBuild();
  home = await tempDir('sb-serve-many-');
  await mkdir(path.join(home, 'work'));
  await writeFile(path.join(home, 'config.toml'), `[mcp_servers.solo]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\nenv = { GW_NAME = "solo" }\n`);
});
afterAll(async () => {
  if (home) await removeTree(home);
});

const start = (args: string[] = []) =>
  spawnServe(['--http', '127.0.0.1:0', '--insecure-no-auth', ...args], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home }, cwd: path.join(home, 'work') });
const upstreamPids = async (serve: ServeProcess) => (await descendants(serve.child.pid!)).filter((p) => p.command.includes(UPSTREAM_FIXTURE)).map((p) => p.pid);

async function sdkClient(url: string): Promise<Client> {
  const client = new Client({ name: 'many', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}
const echo = (client: Client, text: string) => client.callTool({ name: 'mcp__solo__echo', arguments: { text } }, CALL).then(textOf);

// `npm test` takes one setting, `npm run test:reliability` both (SESSION_STORM_SETTINGS).
describe.each(SESSION_STORM_SETTINGS)('serve --http: 1,000 sessions abandoned without DELETE, %s', (_name, args) => {
  it('a new client is still served, and the upstream runs once', async () => {
    const serve = await start(args);
    try {
      for (let done = 0; done < 1000; done += 50) {
        await Promise.all(
          Array.from({ length: 50 }, async (_, i) => {
            const client = await sdkClient(serve.url);
            expect(await echo(client, `${done + i}`)).toBe(`solo:${done + i}`);
            // close() ends the client's side only: no DELETE reaches the gateway.
            await client.close();
          }),
        );
        if (done % 250 === 0) expect(await upstreamPids(serve)).toHaveLength(1);
      }
      const client = await sdkClient(serve.url);
      expect(await echo(client, 'newcomer')).toBe('solo:newcomer');
      await client.close();
      expect(await upstreamPids(serve)).toHaveLength(1);
      expect(serve.stderr()).not.toMatch(/Too many sessions/);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  }, 300_000);
});

describe('serve --http: a client that disconnects mid-request', () => {
  it('has its upstream call cancelled; the other clients are not disturbed', async () => {
    const serve = await start();
    const others = await Promise.all([sdkClient(serve.url), sdkClient(serve.url)]);
    let stop = false;
    try {
      const seen = async () => JSON.parse(textOf(await others[0]!.callTool({ name: 'mcp__solo__seen', arguments: {} }, CALL))) as { waiting: number; cancelled: number };
      const before = (await seen()).cancelled;
      // The other clients keep a steady stream of calls going through the whole episode (paced as the
      // fault matrix's healthy caller: back to back they would only burn the shared cores for 10 s).
      const steady = others.map(async (c, i) => {
        let n = 0;
        for (; !stop; n++) {
          if ((await echo(c, `${i}.${n}`)) !== `solo:${i}.${n}`) throw new Error(`client ${i}, call ${n}: wrong answer`);
          await steadyPause();
        }
        return n;
      });
      steady.forEach((p) => p.catch(() => {}));
      const leaver = new RawHttpSession(serve.url, null);
      await leaver.initialize({});
      const gone = new AbortController();
      const res = await leaver.post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'mcp__solo__wait_for_cancel', arguments: {} } }, { signal: gone.signal });
      expect(res.status).toBe(200);
      // The call is running (its stream is open), then the client vanishes: no notifications/cancelled.
      for await (const _event of readSse(res)) break;
      await waitFor(async () => (await seen()).waiting === 1, 'the call running upstream');
      gone.abort();
      await waitFor(async () => (await seen()).cancelled === before + 1, 'the upstream call cancelled', 30_000);
      expect((await seen()).waiting).toBe(0);
      stop = true;
      const calls = await Promise.all(steady);
      expect(calls.every((n) => n > 0)).toBe(true);
      expect(await upstreamPids(serve)).toHaveLength(1);
    } finally {
      stop = true;
      await Promise.all(others.map((c) => c.close()));
      expect(await serve.stop()).toBe(0);
    }
  }, 120_000);
});
