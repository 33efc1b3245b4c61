// The operations routes of the HTTP endpoints as processes: /healthz and /readyz answer without the
// token and say nothing else (/readyz: the verdict and the config revision in force); /metrics needs the token (or --metrics-listen, without it) and counts
// calls, upstream states, sessions; the page shell reveals nothing; the exec-server serves them too.
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { UPSTREAM_FIXTURE } from '../gateway/gateway-harness.js';
import { spawnServe, type ServeProcess } from '../gateway/serve-process.js';
import { revisionOf } from '../support/config-save.js';
import { startExecServerProcess, type ExecServerProcess } from '../support/exec-processes.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { removeTree, tempDir } from '../support/temp.js';
import { waitFor } from '../support/wait.js';

const TOKEN = 'ops-endpoints-test-token-abcdefgh';
const node = JSON.stringify(process.execPath);
const UP = `[mcp_servers.up]\ncommand = ${node}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\n`;
const BROKEN = `[mcp_servers.broken]\ncommand = ${node}\nargs = ["-e", "process.exit(3)"]\n`;

async function gatewayWith(toml: string, extraArgs: string[] = []): Promise<{ serve: ServeProcess; home: string; origin: string; revision: string }> {
  const home = await tempDir('sb-ops-');
  const work = path.join(home, 'work');
  await mkdir(work);
  await writeFile(path.join(home, 'config.toml'), toml);
  const serve = await spawnServe(['--http', '127.0.0.1:0', ...extraArgs], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, SWITCHBOARD_MCP_TOKEN: TOKEN }, cwd: work });
  return { serve, home, origin: new URL(serve.url).origin, revision: revisionOf(toml) };
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; type: string }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') ?? '' };
}

/** A GET with headers fetch will not let us set (Origin). */
function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

const auth = { Authorization: `Bearer ${TOKEN}` };

describe('serve --http: health, readiness and metrics', () => {
  let gw: Awaited<ReturnType<typeof gatewayWith>>;
  let metricsUrl: string;

  beforeAll(async () => {
    requireBuild();
    gw = await gatewayWith(`[mcp_servers.up]\ncommand = ${node}\nargs = [${JSON.stringify(UPSTREAM_FIXTURE)}]\nrequired = true\n${BROKEN}`, ['--metrics-listen', '127.0.0.1:0']);
    metricsUrl = await waitFor(() => /metrics on (\S+)/.exec(gw.serve.stderr())?.[1], 'the metrics listener URL on stderr');
  });

  afterAll(async () => {
    await gw?.serve.stop();
    if (gw) await removeTree(gw.home);
  });

  it('answers /healthz and /readyz without a token, with nothing but the verdict (and the config revision)', async () => {
    expect(await get(`${gw.origin}/healthz`)).toMatchObject({ status: 200, body: 'ok\n' });
    // The required server is ready (the broken one is not required).
    await waitFor(async () => (await get(`${gw.origin}/readyz`)).status === 200, '/readyz 200');
    expect(await get(`${gw.origin}/readyz`)).toMatchObject({ status: 200, body: `ready\nconfig revision ${gw.revision}\n` });
  });

  it('serves /metrics with the token only, counting calls, states and sessions', async () => {
    expect((await get(`${gw.origin}/metrics`)).status).toBe(401);
    expect(await rawGet(`${gw.origin}/metrics`, { ...auth, Origin: 'http://evil.example' })).toBe(403);
    const client = new Client({ name: 'metrics-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gw.serve.url), { requestInit: { headers: auth } }));
    try {
      await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'mcp__up__echo'), 'the echo tool');
      await client.callTool({ name: 'mcp__up__echo', arguments: { text: 'x' } });
      const m = await get(`${gw.origin}/metrics`, auth);
      expect(m.status).toBe(200);
      expect(m.type).toContain('text/plain; version=0.0.4');
      const lines = m.body.split('\n');
      expect(lines).toContain('switchboard_upstream_up{server="up"} 1');
      expect(lines).toContain('switchboard_upstream_up{server="broken"} 0');
      expect(lines).toContain('switchboard_upstream_state{server="up",state="ready"} 1');
      expect(lines).toContain('switchboard_upstream_tools{server="up"} 11');
      expect(lines).toContain('switchboard_upstream_restarts_total{server="up"} 0');
      expect(lines.some((l) => /^switchboard_upstream_startup_seconds\{server="up"\} [\d.]+$/.test(l))).toBe(true);
      expect(lines).toContain('switchboard_upstream_calls_total{server="up",tool="echo",outcome="ok"} 1');
      expect(lines).toContain('mcp_server_operation_duration_seconds_count{method="tools/call",outcome="ok"} 1');
      expect(lines).toContain('mcp_client_operation_duration_seconds_count{server="up",method="tools/call",outcome="ok"} 1');
      expect(lines).toContain('switchboard_http_sessions 1');
      expect(lines.some((l) => l.startsWith('switchboard_process_resident_memory_bytes '))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('serves /metrics, /healthz and /readyz without the token on --metrics-listen, and nothing else', async () => {
    const m = await get(metricsUrl);
    expect(m.status).toBe(200);
    expect(m.body).toContain('switchboard_upstream_up{server="up"} 1');
    expect((await get(new URL('/healthz', metricsUrl).href)).status).toBe(200);
    expect((await get(new URL('/readyz', metricsUrl).href)).status).toBe(200);
    expect((await get(new URL('/', metricsUrl).href)).status).toBe(404);
    expect((await get(new URL('/ops/status', metricsUrl).href)).status).toBe(404);
  });

  it('serves the page shell without the token, revealing no server; its data needs the token', async () => {
    const page = await get(`${gw.origin}/`);
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(page.body).not.toContain('broken');
    expect((await get(`${gw.origin}/ops/status`)).status).toBe(401);
    expect((await get(`${gw.origin}/ops/events`)).status).toBe(401);
    const status = JSON.parse((await get(`${gw.origin}/ops/status`, auth)).body) as { upstreams: { name: string }[] };
    expect(status.upstreams.map((u) => u.name)).toEqual(['up', 'broken']);
  });
});

describe('serve --http: /readyz with a required server down', () => {
  let gw: Awaited<ReturnType<typeof gatewayWith>>;
  beforeAll(async () => {
    requireBuild();
    gw = await gatewayWith(`${UP}${BROKEN}required = true\n`);
  });
  afterAll(async () => {
    await gw?.serve.stop();
    if (gw) await removeTree(gw.home);
  });

  it('is 503 "not ready" while alive', async () => {
    await waitFor(async () => JSON.parse((await get(`${gw.origin}/ops/status`, auth)).body).upstreams.some((u: { state: string }) => u.state === 'failed'), 'broken failed');
    expect(await get(`${gw.origin}/readyz`)).toMatchObject({ status: 503, body: `not ready\nconfig revision ${gw.revision}\n` });
    expect(await get(`${gw.origin}/healthz`)).toMatchObject({ status: 200, body: 'ok\n' });
  });
});

describe('exec-server: operations routes beside the WebSocket', () => {
  let server: ExecServerProcess;
  let base: string;
  beforeAll(async () => {
    server = await startExecServerProcess(['--listen', '127.0.0.1:0'], { env: { ...process.env, SWITCHBOARD_EXEC_TOKEN: TOKEN } });
    base = server.url.replace(/^ws:/, 'http:');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers health and readiness, metrics with the token, and 426 elsewhere', async () => {
    expect(await get(`${base}/healthz`)).toMatchObject({ status: 200, body: 'ok\n' });
    expect(await get(`${base}/readyz`)).toMatchObject({ status: 200, body: 'ready\n' });
    expect((await get(`${base}/metrics`)).status).toBe(401);
    const m = await get(`${base}/metrics`, auth);
    expect(m.status).toBe(200);
    expect(m.body).toContain('switchboard_process_resident_memory_bytes');
    expect((await get(`${base}/somewhere`)).status).toBe(426);
  });
});
