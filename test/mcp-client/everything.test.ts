// @modelcontextprotocol/server-everything (built on the v1 SDK) as a third-party peer: over stdio,
// Streamable HTTP and legacy HTTP+SSE.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalLauncher } from '../../src/mcp-client/index.js';
import { NODE, clientPool, serverConfig, textOf } from './helpers.js';
import { waitFor } from '../support/wait.js';
import { freePort } from '../support/free-port.mjs';

const require = createRequire(import.meta.url);
const EVERYTHING = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');

const pool = clientPool();
const children: ChildProcess[] = [];
afterEach(async () => {
  await pool.closeAll();
  for (const child of children.splice(0)) {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
});

/** Start server-everything in `mode` on a free port; resolves once it listens. */
async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<string> {
  const port = await freePort();
  const child = spawn(NODE, [EVERYTHING, mode], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening on port|Server is running on port/i.test(seen)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${seen}`)));
  });
  return mode === 'sse' ? `http://127.0.0.1:${port}/sse` : `http://127.0.0.1:${port}/mcp`;
}

describe('server-everything over stdio', () => {
  it('connects, sees the elicitation-gated tools, and keeps parent secrets out of its environment', async () => {
    const launcher = createLocalLauncher({ parentEnv: { ...process.env, OPENAI_API_KEY: 'sk-should-not-leak' } });
    const client = pool.create(serverConfig('everything', { command: NODE, args: [EVERYTHING, 'stdio'] }), { launcher });
    const ready = await client.connect();
    expect(ready.serverInfo?.name).toContain('everything');
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation', 'trigger-elicitation-request']));
    // Sampling is advertised only with a handler, so the sampling tool is not offered.
    expect(names).not.toContain('trigger-sampling-request');
    expect(textOf(await client.callTool('echo', { message: 'hello' }))).toContain('hello');
    const env = JSON.parse(textOf(await client.callTool('get-env', {}))) as Record<string, string>;
    expect(env).not.toHaveProperty('OPENAI_API_KEY');
    expect(env.PATH).toBe(process.env.PATH);
  });

  it('reports progress for a long-running operation and completes prompt arguments', async () => {
    const client = pool.create(serverConfig('everything', { command: NODE, args: [EVERYTHING, 'stdio'] }));
    await client.connect();
    const progress: number[] = [];
    const result = await client.callTool('trigger-long-running-operation', { duration: 1, steps: 4 }, { onProgress: (p) => progress.push(p.progress) });
    expect(textOf(result)).toContain('Long running operation completed');
    expect(progress.length).toBeGreaterThanOrEqual(3);
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } });
    expect(completion.completion.values).toContain('Engineering');
    expect((await client.listResources()).length).toBeGreaterThan(0);
    expect((await client.listPrompts()).map((p) => p.name)).toContain('completable-prompt');
  });

  it('delivers resource updates for a subscription', async () => {
    const updated: string[] = [];
    const client = pool.create(serverConfig('everything', { command: NODE, args: [EVERYTHING, 'stdio'] }), {
      handlers: { onResourceUpdated: (uri) => updated.push(uri) },
    });
    const ready = await client.connect();
    expect(ready.capabilities.resources?.subscribe).toBe(true);
    const uri = (await client.listResources())[0]!.uri;
    await client.subscribe(uri);
    await client.callTool('toggle-subscriber-updates', {});
    await waitFor(() => updated.includes(uri), 'a resources/updated notification', 20_000);
    await client.unsubscribe(uri);
  });
});

describe('server-everything over HTTP', () => {
  it('works over Streamable HTTP', async () => {
    const url = await startEverything('streamableHttp');
    const client = pool.create(serverConfig('everything', { url }));
    await client.connect();
    expect(textOf(await client.callTool('get-sum', { a: 2, b: 40 }))).toContain('42');
    expect((await client.listResourceTemplates()).length).toBeGreaterThan(0);
  });

  it('works over legacy HTTP+SSE when configured with transport = "sse"', async () => {
    const url = await startEverything('sse');
    const client = pool.create(serverConfig('everything', { url, transport: 'sse' }));
    await client.connect();
    expect(textOf(await client.callTool('echo', { message: 'over sse' }))).toContain('over sse');
  });
});
