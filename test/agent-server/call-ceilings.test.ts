// What a caller's `codex` arguments may change over HTTP, per [server_auth] rule (issue 30): the
// refusals name the argument on every road (2025 session calls and tasks, 2026-07-28 requests and
// tasks); the server's own setting beyond a rule's lower ceiling is lowered to it; harmless keys pass;
// a rule raising the ceiling allows what it names; `codex-reply` holds another caller's thread to the
// replier's ceiling; the static token is a caller unless trust_static_token. The built CLI as a child
// process, the real OAuth fixture, the fake model server. (The abuse probes are in
// test/reliability/security-agent-args.test.ts.)
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { post2026 } from '../support/raw-2026.js';
import { callTool, startCeilingServer, type CeilingServer } from './ceiling-server.js';

const STATIC = 'ceilings-static-token-0123456789';
const RULES = [
  '[[server_auth.rules]]',
  'when = { claim = "groups", contains = "agents" }',
  'allow = ["codex", "codex-reply"]',
  '[[server_auth.rules]]',
  'when = { claim = "groups", contains = "builders" }',
  'allow = ["codex", "codex-reply"]',
  'sandbox = "danger-full-access"',
  'approval_policy = "never"',
  'config_keys = ["sandbox_workspace_write.network_access"]',
  'cwd_roots = ["/"]',
  '[[server_auth.rules]]',
  'when = { claim = "groups", contains = "readers" }',
  'allow = ["codex"]',
  'sandbox = "read-only"',
  'approval_policy = "untrusted"',
  '[[server_auth.rules]]',
  'when = { claim = "sub", equals = "lead" }',
  'allow = ["codex-reply"]',
  'threads = "all"',
].join('\n');
const EXT = 'io.modelcontextprotocol/tasks';

let model: FakeModelServer;
let server: CeilingServer;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  model = await startFakeModelServer();
  server = await startCeilingServer(model, { topLevel: 'sandbox_mode = "workspace-write"', toml: RULES, env: { SWITCHBOARD_MCP_TOKEN: STATIC } });
}, 60_000);
afterAll(async () => {
  await Promise.allSettled(closers.splice(0).map((c) => c()));
  await server?.stop();
  await model?.close();
});

async function session(claims: Record<string, unknown> | string) {
  const s = await server.session(claims);
  closers.push(() => s.close());
  return s;
}

const text = (r: { content: { text: string }[] }) => r.content[0]!.text;
const configured = (events: { type: string }[]) => events.find((e) => e.type === 'session_configured') as { approval_policy: string; sandbox_policy: { type: string }; cwd: string; model: string } | undefined;

describe('mcp-server --http: codex arguments within the caller\'s ceiling', { timeout: 60_000 }, () => {
  it('refuses, naming the argument, on a 2025 session: a config key, the sandbox, the approval policy, cwd', async () => {
    const alice = await session({ sub: 'alice', groups: ['agents'] });
    const before = model.requests.length;
    expect(text((await callTool(alice, 'codex', { prompt: 'x', config: { 'sandbox_workspace_write.network_access': true } })).result)).toMatch(
      /^The config key `sandbox_workspace_write\.network_access` is not open to callers of this server over HTTP; leave it out of `config`, or ask the operator to list it in config_keys/,
    );
    expect(text((await callTool(alice, 'codex', { prompt: 'x', sandbox: 'danger-full-access' })).result)).toBe(
      'The sandbox `danger-full-access` (from `sandbox`) is looser than this server allows your calls over HTTP (at most `workspace-write`); ask for `workspace-write` or stricter, or ask the operator to raise sandbox in your [server_auth] rule (docs/server-auth.md).',
    );
    expect(text((await callTool(alice, 'codex', { prompt: 'x', 'approval-policy': 'never' })).result)).toMatch(/^The approval policy `never` \(from `approval-policy`\) is looser .* \(at most `on-request`/);
    expect(text((await callTool(alice, 'codex', { prompt: 'x', cwd: '/tmp' })).result)).toMatch(/^The working directory \/tmp \(from `cwd`\) is outside the directories this server allows your calls over HTTP \(.*\/work\)/);
    expect(model.requests.length).toBe(before);
  });

  it('passes harmless keys and what is within the ceiling: the model asked for, stricter settings, a cwd inside', async () => {
    const alice = await session({ sub: 'alice', groups: ['agents'] });
    model.enqueue(responsesTurn({ text: 'ok' }));
    const answer = await callTool(alice, 'codex', {
      prompt: 'x',
      sandbox: 'read-only',
      'approval-policy': 'untrusted',
      cwd: '.',
      config: { model: 'gpt-5.3-codex', model_reasoning_effort: 'high', developer_instructions: 'be brief' },
    });
    expect(answer.result).toMatchObject({ content: [{ text: 'ok' }], structuredContent: { content: 'ok' } });
    expect(model.requests.at(-1)!.body.model).toBe('gpt-5.3-codex');
    expect(configured(answer.events)).toMatchObject({ sandbox_policy: { type: 'read-only' }, approval_policy: 'untrusted', cwd: server.work });
  });

  it("lowers the server's own settings to a lower rule ceiling when the call names none", async () => {
    const reader = await session({ sub: 'rita', groups: ['readers'] });
    model.enqueue(responsesTurn({ text: 'read' }));
    const answer = await callTool(reader, 'codex', { prompt: 'x' });
    expect(text(answer.result)).toBe('read');
    expect(configured(answer.events)).toMatchObject({ sandbox_policy: { type: 'read-only' }, approval_policy: 'untrusted' });
    expect(text((await callTool(reader, 'codex', { prompt: 'x', sandbox: 'workspace-write' })).result)).toMatch(/sandbox `workspace-write` \(from `sandbox`\).*at most `read-only`/);
  });

  it('a rule raising the ceiling allows what it names: no sandbox, no approvals, any directory, its config key', async () => {
    const builder = await session({ sub: 'bo', groups: ['builders'] });
    const marker = path.join(server.home, 'built-here');
    model.enqueue(responsesTurn({ calls: [{ id: 'b1', name: 'shell', args: { command: ['touch', marker] } }] }), responsesTurn({ text: 'built' }));
    const answer = await callTool(builder, 'codex', {
      prompt: 'x',
      sandbox: 'danger-full-access',
      'approval-policy': 'never',
      cwd: server.home,
      config: { 'sandbox_workspace_write.network_access': true },
    });
    expect(text(answer.result)).toBe('built');
    expect(existsSync(marker)).toBe(true);
    expect(configured(answer.events)).toMatchObject({ sandbox_policy: { type: 'danger-full-access' }, approval_policy: 'never', cwd: server.home });
    // Still no provider of its own: config_keys names only what it names.
    expect(text((await callTool(builder, 'codex', { prompt: 'x', config: { model_provider: 'oss' } })).result)).toMatch(/config key `model_provider`/);

    // Another caller continuing that thread (threads = "all") is held to its own ceiling.
    const threadId = answer.result.structuredContent!.threadId!;
    const lead = await session({ sub: 'lead' });
    const refused = await callTool(lead, 'codex-reply', { threadId, prompt: 'more' });
    expect(refused.result).toMatchObject({ isError: true, structuredContent: { threadId } });
    expect(text(refused.result)).toBe(
      'This thread runs with sandbox `danger-full-access`, beyond what this server allows your calls over HTTP (`workspace-write`); you cannot continue it. Start your own with `codex`.',
    );
    model.enqueue(responsesTurn({ text: 'mine still' }));
    expect(text((await callTool(builder, 'codex-reply', { threadId, prompt: 'more' })).result)).toBe('mine still');
  });

  it('refuses in a 2025 task, a 2026-07-28 request and a 2026-07-28 task alike', async () => {
    const alice = await session({ sub: 'alice', groups: ['agents'] });
    const created = (await alice.request('tools/call', { name: 'codex', arguments: { prompt: 'x', sandbox: 'danger-full-access' }, task: { ttl: 60_000 } })) as { result: { task: { taskId: string } } };
    const taskResult = (await alice.request('tasks/result', { taskId: created.result.task.taskId })) as { result: { isError: boolean; content: { text: string }[] } };
    expect(taskResult.result.isError).toBe(true);
    expect(text(taskResult.result)).toMatch(/^The sandbox `danger-full-access` \(from `sandbox`\)/);

    const token = await server.token({ sub: 'alice', groups: ['agents'] });
    const call = { method: 'tools/call', params: { name: 'codex', arguments: { prompt: 'x', config: { notify: ['true'] } } }, name: 'codex', token };
    const modern = (await post2026<{ result: { isError: boolean; content: { text: string }[] } }>(server.url, { id: 1, ...call })).answer.result;
    expect(modern.isError).toBe(true);
    expect(text(modern)).toMatch(/^The config key `notify` is not open/);

    const tasks = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { [EXT]: {} } } };
    const task = (await post2026<{ result: { taskId: string } }>(server.url, { id: 2, ...call, meta: tasks })).answer.result;
    let got: { status: string; result?: { isError: boolean; content: { text: string }[] } } = { status: 'working' };
    for (let i = 0; i < 100 && got.status === 'working'; i++) {
      got = (await post2026<{ result: typeof got }>(server.url, { id: 3 + i, method: 'tasks/get', params: { taskId: task.taskId }, name: task.taskId, token, meta: tasks })).answer.result;
      if (got.status === 'working') await new Promise((r) => setTimeout(r, 50));
    }
    expect(got).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(text(got.result!)).toMatch(/^The config key `notify` is not open/);
  });

  it('holds the static token to the same default ceiling', async () => {
    const operator = await session(STATIC);
    expect(text((await callTool(operator, 'codex', { prompt: 'x', sandbox: 'danger-full-access' })).result)).toMatch(/^The sandbox `danger-full-access` \(from `sandbox`\).*at most `workspace-write`/);
  });
});

describe('mcp-server --http with trust_static_token', { timeout: 60_000 }, () => {
  it('lets the static token change anything a call can, as over stdio; token callers stay limited', async () => {
    const trusted = await startCeilingServer(model, { toml: RULES, env: { SWITCHBOARD_MCP_TOKEN: STATIC }, args: ['-c', 'server_auth.trust_static_token=true'] });
    try {
      const operator = await trusted.session(STATIC);
      model.enqueue(responsesTurn({ text: 'as you wish' }));
      const answer = await callTool(operator, 'codex', { prompt: 'x', sandbox: 'danger-full-access', 'approval-policy': 'never', cwd: '/', config: { model_provider: 'mock' } });
      expect(text(answer.result)).toBe('as you wish');
      expect(configured(answer.events)).toMatchObject({ sandbox_policy: { type: 'danger-full-access' }, approval_policy: 'never', cwd: '/' });
      const alice = await trusted.session({ sub: 'alice', groups: ['agents'] });
      expect(text((await callTool(alice, 'codex', { prompt: 'x', config: { model_provider: 'mock' } })).result)).toMatch(/config key `model_provider`/);
      await operator.close();
      await alice.close();
    } finally {
      await trusted.stop();
    }
  });
});
