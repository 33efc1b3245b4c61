// The server in-process (SDK v2 client on an in-memory transport, real agent and fake model): what a
// call's options do to the thread and the model request, server-level -c overrides, codex_events off,
// failed turns, elicitations from the agent's own MCP servers, and the progress heartbeat.
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApplyPatchTool, createShellTool, NoSandbox } from '../../src/core/index.js';
import { responsesTurn, rsp, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { connectInProcess, createDemoServer, type InProcessMcp } from '../fixtures/in-process-mcp.js';
import { connectInMemory, inProcessAgent, type InProcess } from '../support/in-process-server.js';
import type { ToolResult } from '../support/mcp-test-clients.js';

let model: FakeModelServer;
let ip: InProcess | undefined;
let conn: Awaited<ReturnType<typeof connectInMemory>> | undefined;
let servers: InProcessMcp | undefined;

beforeEach(async () => {
  model = await startFakeModelServer();
});
afterEach(async () => {
  await conn?.close();
  conn = undefined;
  await ip?.cleanup();
  ip = undefined;
  await servers?.close();
  servers = undefined;
  await model.close();
});

async function setup(opts: Parameters<typeof inProcessAgent>[1] = {}, capabilities?: Record<string, unknown>) {
  ip = await inProcessAgent(model, opts);
  conn = await connectInMemory(ip, capabilities);
  return conn;
}

const call = async (name: string, args: Record<string, unknown>, extra: { onprogress?: (p: { progress: number; message?: string }) => void; signal?: AbortSignal } = {}) =>
  (await conn!.client.callTool({ name, arguments: args }, { timeout: 60_000, ...extra })) as ToolResult;
const configured = () => conn!.events.find((e) => e.msg.type === 'session_configured')!.msg;
type Item = { type?: string; role?: string; content?: { text?: string }[] };

describe('call options', () => {
  it('model, cwd (relative to the server), policies and instructions shape the thread and the model request', async () => {
    await setup();
    await mkdir(path.join(ip!.work, 'sub'));
    model.enqueue(responsesTurn({ text: 'ok' }));
    const r = await call('codex', {
      prompt: 'hello',
      model: 'other-model',
      cwd: 'sub',
      'approval-policy': 'never',
      sandbox: 'read-only',
      'base-instructions': 'You are a test double.',
      'developer-instructions': 'Always answer ok.',
    });
    expect(r.content[0]!.text).toBe('ok');
    expect(configured()).toMatchObject({ model: 'other-model', cwd: path.join(ip!.work, 'sub'), approval_policy: 'never', sandbox_policy: { type: 'read-only' } });
    const body = model.requests[0]!.body;
    expect(body.model).toBe('other-model');
    expect(String(body.instructions).startsWith('You are a test double.')).toBe(true);
    const developer = (body.input as Item[]).filter((i) => i.role === 'developer').map((i) => i.content![0]!.text);
    expect(developer).toContain('Always answer ok.');
    expect(developer.join('\n')).toContain('<sandbox_mode>read-only</sandbox_mode>');
  });

  it('a call’s profile and config apply on top of the server’s -c overrides; unknown keys warn', async () => {
    await setup({ raw: { profiles: { fast: { model: 'profile-model' } } }, overrides: [{ path: ['model'], value: 'server-c-model' }] });
    for (let i = 0; i < 3; i++) model.enqueue(responsesTurn({ text: `r${i}` }));
    await call('codex', { prompt: 'a' });
    await call('codex', { prompt: 'b', profile: 'fast' });
    await call('codex', {
      prompt: 'c',
      config: { model: 'call-config-model', sandbox_mode: 'workspace-write', 'sandbox_workspace_write.network_access': true, frobnicate: null },
    });
    expect(model.requests.map((r) => r.body.model)).toEqual(['server-c-model', 'profile-model', 'call-config-model']);
    const last = conn!.events.filter((e) => e.msg.type === 'session_configured').at(-1)!.msg;
    expect(last.sandbox_policy).toMatchObject({ type: 'workspace-write', network_access: true });
    expect(conn!.events.some((e) => e.msg.type === 'warning' && e.msg.message === 'unknown key frobnicate ignored')).toBe(true);
  });

  it('a cwd that is not a directory fails the start', async () => {
    await setup();
    const r = await call('codex', { prompt: 'x', cwd: 'missing-dir' });
    expect(r).toMatchObject({ isError: true, content: [{ text: `Failed to start Codex session: cwd ${path.join(ip!.work, 'missing-dir')} is not a directory` }] });
  });
});

describe('results and events', () => {
  it('-c mcp_server.codex_events=false sends no codex/event, results are unchanged', async () => {
    await setup({ overrides: [{ path: ['mcp_server', 'codex_events'], value: false }] });
    model.enqueue(responsesTurn({ text: 'quiet' }));
    const progress: unknown[] = [];
    const r = await call('codex', { prompt: 'x' }, { onprogress: (p) => progress.push(p) });
    expect(r.structuredContent?.content).toBe('quiet');
    expect(conn!.notifications.filter((n) => n.method === 'codex/event')).toEqual([]);
    expect(progress.length).toBeGreaterThan(0);
  });

  it('a failed turn is an error result with its message; the next reply on the thread succeeds', async () => {
    await setup();
    model.enqueue({ kind: 'responses', events: [rsp.created(), rsp.failed('insufficient_quota', 'Quota exceeded. Check your plan and billing details.')] });
    const failed = await call('codex', { prompt: 'x' });
    expect(failed.isError).toBe(true);
    expect(failed.content[0]!.text).toMatch(/Quota exceeded/);
    const threadId = failed.structuredContent!.threadId;
    model.enqueue(responsesTurn({ text: 'recovered' }));
    expect(await call('codex-reply', { threadId, prompt: 'again' })).toEqual({ content: [{ type: 'text', text: 'recovered' }], structuredContent: { threadId, content: 'recovered' } });
  });

  it('an idle thread is shut down to free memory and codex-reply resumes it from its rollout', async () => {
    await setup({ threadIdleMs: 100 });
    model.enqueue(responsesTurn({ text: 'noted' }));
    const first = await call('codex', { prompt: 'remember 7' });
    const threadId = first.structuredContent!.threadId;
    await expect.poll(() => ip!.agent.manager.find(threadId), { timeout: 20_000 }).toBeUndefined();
    model.enqueue(responsesTurn({ text: 'it was 7' }));
    expect(await call('codex-reply', { threadId, prompt: 'what was it?' })).toEqual({ content: [{ type: 'text', text: 'it was 7' }], structuredContent: { threadId, content: 'it was 7' } });
    expect(JSON.stringify(model.requests[1]!.body.input)).toContain('remember 7');
  });

  it('heartbeat progress keeps arriving while a turn is silent', async () => {
    await setup({ options: { heartbeatMs: 50 } });
    model.enqueue({ kind: 'responses', events: [rsp.created()], hang: true });
    const progress: { progress: number; message?: string }[] = [];
    const abort = new AbortController();
    const running = call('codex', { prompt: 'x' }, { onprogress: (p) => progress.push(p), signal: abort.signal });
    await expect.poll(() => progress.filter((p) => p.message === 'still working').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    abort.abort();
    await expect(running).rejects.toThrow();
  });
});

describe("the agent's own MCP servers", () => {
  it('forward their elicitations to the client and return the answer', async () => {
    servers = await connectInProcess({ demo: () => createDemoServer({ cancelled: 0 }) });
    await setup({ mcp: servers.source, tools: [createShellTool({ sandbox: new NoSandbox(process.platform) }), createApplyPatchTool()] });
    const asked: Record<string, unknown>[] = [];
    conn!.client.setRequestHandler('elicitation/create', async (req) => {
      asked.push(req.params as Record<string, unknown>);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    model.enqueue(responsesTurn({ calls: [{ id: 'm1', name: 'mcp__demo__ask', args: {} }] }), responsesTurn({ text: 'hello Ada' }));
    const r = await call('codex', { prompt: 'ask my name' });
    expect(r.content[0]!.text).toBe('hello Ada');
    expect(asked).toEqual([expect.objectContaining({ message: 'Your name?', requestedSchema: expect.objectContaining({ type: 'object' }) })]);
    expect(conn!.events.some((e) => e.msg.type === 'elicitation_request' && e.msg.server_name === 'demo')).toBe(true);
    const output = (model.requests[1]!.body.input as { type: string; output?: unknown }[]).find((i) => i.type === 'function_call_output');
    expect(JSON.stringify(output)).toContain('Ada');
  });

  it('are answered cancel when the client cannot show a form', async () => {
    servers = await connectInProcess({ demo: () => createDemoServer({ cancelled: 0 }) });
    await setup({ mcp: servers.source, tools: [] }, {});
    model.enqueue(responsesTurn({ calls: [{ id: 'm1', name: 'mcp__demo__ask', args: {} }] }), responsesTurn({ text: 'no name' }));
    expect((await call('codex', { prompt: 'ask' })).content[0]!.text).toBe('no name');
    const output = (model.requests[1]!.body.input as { type: string; output?: unknown }[]).find((i) => i.type === 'function_call_output');
    expect(JSON.stringify(output)).toContain('cancel');
  });
});
