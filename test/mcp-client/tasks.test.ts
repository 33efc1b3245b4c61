// The tasks extension (2026-07-28): a long tools/call the server turns into a task is polled with
// tasks/get at the server's interval until it ends; status messages reach the caller as progress; an
// abort or the call's deadline cancels the task with tasks/cancel.
import type { Progress } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixtureServer } from '../fixtures/mcp/v2-server.mjs';
import { startHttpFixture } from '../fixtures/mcp/http-fixture.js';
import type { HttpFixture } from '../fixtures/mcp/http-fixture.js';
import { clientPool, failure, fixtureStdio, serverConfig, textOf } from './helpers.js';
import { waitFor } from '../support/wait.js';

const pool = clientPool();
const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await pool.closeAll();
  await Promise.all(fixtures.splice(0).map((f) => f.close()));
});


/** A 2026-07-28-only HTTP server with the task tool; its events (polls with their time) are recorded. */
async function modernTaskServer(events: string[]) {
  const f = await startHttpFixture({ flavor: 'modern', legacy: 'reject', createServer: () => createFixtureServer({ tasks: true, onEvent: (e) => events.push(e) }) as never });
  fixtures.push(f);
  const client = pool.create(serverConfig('jobs', { url: f.url }));
  expect((await client.connect()).protocolVersion).toBe('2026-07-28');
  return { f, client };
}

const polls = (events: string[]) => events.filter((e) => e.startsWith('tasks/get ')).map((e) => Number(e.split(' ')[2]));

describe('a tools/call the server turns into a task', () => {
  it('is polled at the server\'s interval until it completes, and its status messages arrive as progress', async () => {
    const events: string[] = [];
    const { f, client } = await modernTaskServer(events);
    const progress: Progress[] = [];
    const result = await client.callTool('long_job', { ms: 800, steps: 4 }, { onProgress: (p) => progress.push(p) });
    expect(textOf(result)).toBe('job done after 4 steps');
    expect(events).toContain('task task-1 created');
    expect(f.count('tools/call')).toBe(1);
    // The fixture hints 100 ms between polls; none comes sooner.
    const times = polls(events);
    expect(times.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(90);
    expect(progress.map((p) => p.message)).toEqual(expect.arrayContaining(['step 4/4']));
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    expect(f.count('tasks/cancel')).toBe(0);
  });

  it('a task that fails ends the call with the server\'s error', async () => {
    const { client } = await modernTaskServer([]);
    const err = await failure(client.callTool('long_job', { ms: 100, steps: 1, fail: true }));
    expect(err.code).toBe('protocol');
    expect(err.message).toContain('the job crashed');
  });

  it('aborting the call cancels the task', async () => {
    const events: string[] = [];
    const { f, client } = await modernTaskServer(events);
    const controller = new AbortController();
    const call = client.callTool('long_job', { ms: 30_000, steps: 30 }, { signal: controller.signal });
    await waitFor(() => polls(events).length >= 1, 'the first poll', 10_000);
    controller.abort();
    expect((await failure(call)).code).toBe('cancelled');
    await waitFor(() => events.some((e) => /^task task-\d+ cancelled$/.test(e)), 'tasks/cancel to reach the server', 10_000);
    expect(f.count('tasks/cancel')).toBe(1);
  });

  it('the call\'s deadline bounds the whole task and cancels it', async () => {
    const events: string[] = [];
    const { client } = await modernTaskServer(events);
    const started = Date.now();
    const err = await failure(client.callTool('long_job', { ms: 30_000, steps: 1 }, { timeoutMs: 600 }));
    expect(err.code).toBe('timeout');
    expect(err.message).toBe('timed out awaiting tools/call after 600ms');
    expect(Date.now() - started).toBeLessThan(5_000);
    await waitFor(() => events.some((e) => /^task task-\d+ cancelled$/.test(e)), 'tasks/cancel to reach the server', 10_000);
  });

  it('works over stdio with a 2026-07-28-only server', async () => {
    const client = pool.create(fixtureStdio('jobs', 'stdio-v2-server.mjs', { env: { FIXTURE_SERVE: 'modern-only', FIXTURE_TASKS: '1' } }));
    expect((await client.connect()).protocolVersion).toBe('2026-07-28');
    expect(textOf(await client.callTool('long_job', { ms: 200, steps: 2 }))).toBe('job done after 2 steps');
  });

  it('a 2025 server that creates a task for the declared extension is polled the same way', async () => {
    const client = pool.create(fixtureStdio('jobs', 'stdio-v2-server.mjs', { env: { FIXTURE_TASKS: '1' } }));
    expect((await client.connect()).protocolVersion).toBe('2025-11-25');
    expect(textOf(await client.callTool('long_job', { ms: 200, steps: 2 }))).toBe('job done after 2 steps');
  });
});
