// `switchboard mcp-server` as a child process driven with raw JSON-RPC lines, as Codex's own suite
// drove `codex mcp-server`: the initialize result, protocol errors, a full turn, both kinds of
// approval with every kind of answer, cancellation, busy threads, request-id reuse, EOF shutdown, and
// a restart followed by `codex-reply` on a thread that now lives only on disk.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { responsesTurn, rsp, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { makeServerHome, RawStdioClient, type Frame, type ServerHome } from '../support/mcp-server-harness.js';

let model: FakeModelServer;
let sh: ServerHome;
const clients: RawStdioClient[] = [];

beforeEach(async () => {
  model = await startFakeModelServer();
  sh = await makeServerHome(model);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.stop()));
  await model.close();
  await sh.cleanup();
});

function start(args: string[] = []): RawStdioClient {
  const c = RawStdioClient.spawn(sh, args);
  clients.push(c);
  return c;
}

// One initialized server (with its own model server and home) for the tests that need nothing of a
// fresh connection: each uses its own request ids, threads and files, and counts model requests and
// frames from where it began; only one of them hangs the model (waitForHang counts every hang so far).
// Tests about the first messages, the first server request, per-connection capabilities or the
// process's end start their own.
let sharedServer: Promise<{ c: RawStdioClient; model: FakeModelServer; sh: ServerHome }> | undefined;
function shared(): Promise<{ c: RawStdioClient; model: FakeModelServer; sh: ServerHome }> {
  sharedServer ??= (async () => {
    const m = await startFakeModelServer();
    const home = await makeServerHome(m);
    const c = RawStdioClient.spawn(home);
    await c.initialize();
    return { c, model: m, sh: home };
  })();
  return sharedServer;
}
afterAll(async () => {
  if (!sharedServer) return;
  const { c, model: m, sh: home } = await sharedServer;
  sharedServer = undefined;
  await c.stop();
  await m.close();
  await home.cleanup();
});

const shellCall = (id: string, command: string[]) => responsesTurn({ calls: [{ id, name: 'shell', args: { command } }] });
const hangingTurn = () => ({ kind: 'responses' as const, events: [rsp.created()], hang: true });
type Item = Record<string, unknown>;
const outputsSent = (m: FakeModelServer, n: number) => (m.requests[n]!.body.input as Item[]).filter((i) => i.type === 'function_call_output').map((i) => String(i.output));
const resultOf = (f: Frame) => f.result as { content: { type: string; text: string }[]; structuredContent?: { threadId: string; content: string }; isError?: boolean };

describe('protocol surface', () => {
  it('answers ping before initialize, then initialize as Codex did (with our name), and refuses a second one', async () => {
    const c = start();
    expect((await c.response(c.request('ping'))).result).toEqual({});
    const init = await c.initialize();
    expect(init.result).toEqual({
      protocolVersion: '2025-06-18',
      capabilities: { tools: { listChanged: true }, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      serverInfo: { name: 'switchboard-mcp-server', title: 'Switchboard', version: '0.1.0', user_agent: expect.stringMatching(/^switchboard\/0\.1\.0 \(.+\) \(elicitation test; 0\.0\.0\)$/) },
    });
    const again = await c.response(c.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }));
    expect(again.error).toEqual({ code: -32600, message: 'initialize called more than once' });
  });

  it('negotiates an unknown protocol version to the latest supported', async () => {
    const c = start();
    expect((await c.initialize({}, '2099-01-01')).result).toMatchObject({ protocolVersion: '2025-11-25' });
  });

  it('answers unsupported methods, unparsable and invalid frames, and keeps the connection usable', async () => {
    const c = start();
    await c.initialize();
    for (const method of ['resources/list', 'resources/templates/list', 'resources/read', 'prompts/list', 'prompts/get', 'logging/setLevel', 'completion/complete', 'server/discover', 'x/y']) {
      const r = await c.response(c.request(method, {}));
      expect(r.error).toEqual({ code: -32601, message: `method not found: ${method}`, data: { method } });
    }
    c.writeLine('{');
    expect(await c.waitFor((f) => f.id === null && (f.error as { code: number })?.code === -32700, 'parse error')).toMatchObject({ id: null });
    c.writeLine('{"jsonrpc":"2.0","id":77,"method":42}');
    expect((await c.response(77)).error).toMatchObject({ code: -32600 });
    c.notify('notifications/roots/list_changed');
    c.notify('custom/whatever', { a: 1 });
    expect((await c.response(c.request('ping'))).result).toEqual({});
  });

  it('lists exactly the two Codex tools with their schemas', async () => {
    const { c } = await shared();
    const r = await c.response(c.request('tools/list', { cursor: 'ignored' }));
    const outputSchema = { type: 'object', properties: { threadId: { type: 'string' }, content: { type: 'string' } }, required: ['threadId', 'content'] };
    expect(r.result).toEqual({
      tools: [
        {
          name: 'codex',
          title: 'Codex',
          description: 'Run a Codex session. Accepts configuration parameters matching the Codex Config struct.',
          inputSchema: {
            type: 'object',
            properties: {
              'approval-policy': {
                description: 'Approval policy for shell commands generated by the model: `untrusted`, `on-failure`, `on-request`, `never`.',
                enum: ['untrusted', 'on-failure', 'on-request', 'never'],
                type: 'string',
              },
              'base-instructions': { description: 'The set of instructions to use instead of the default ones.', type: 'string' },
              'compact-prompt': { description: 'Prompt used when compacting the conversation.', type: 'string' },
              config: { additionalProperties: true, description: 'Individual config settings that will override what is in CODEX_HOME/config.toml.', type: 'object' },
              cwd: { description: "Working directory for the session. If relative, it is resolved against the server process's current working directory.", type: 'string' },
              'developer-instructions': { description: 'Developer instructions that should be injected as a developer role message.', type: 'string' },
              model: { description: "Optional override for the model name (e.g. 'gpt-5.2', 'gpt-5.2-codex').", type: 'string' },
              profile: { description: 'Configuration profile from config.toml to specify default options.', type: 'string' },
              prompt: { description: 'The *initial user prompt* to start the Codex conversation.', type: 'string' },
              sandbox: { description: 'Sandbox mode: `read-only`, `workspace-write`, or `danger-full-access`.', enum: ['read-only', 'workspace-write', 'danger-full-access'], type: 'string' },
            },
            required: ['prompt'],
          },
          outputSchema,
          execution: { taskSupport: 'optional' },
        },
        {
          name: 'codex-reply',
          title: 'Codex Reply',
          description: 'Continue a Codex conversation by providing the thread id and prompt.',
          inputSchema: {
            type: 'object',
            properties: {
              conversationId: { description: 'DEPRECATED: use threadId instead.', type: 'string' },
              prompt: { description: 'The *next user prompt* to continue the Codex conversation.', type: 'string' },
              threadId: {
                description:
                  'The thread id for this Codex session. This field is required, but we keep it optional here for backward compatibility for clients that still use conversationId.',
                type: 'string',
              },
            },
            required: ['prompt'],
          },
          outputSchema,
          execution: { taskSupport: 'optional' },
        },
      ],
    });
  });

  it('tool-level failures are isError results with Codex texts', async () => {
    const { c, model } = await shared();
    const before = model.requests.length;
    const call = async (params: Record<string, unknown>) => resultOf(await c.response(c.request('tools/call', params)));
    expect(await call({ name: 'nope', arguments: {} })).toEqual({ content: [{ type: 'text', text: "Unknown tool 'nope'" }], isError: true });
    expect((await call({ name: 'codex' })).content[0]!.text).toBe('Missing arguments for codex tool-call; the `prompt` field is required.');
    expect((await call({ name: 'codex-reply' })).content[0]!.text).toBe(
      'Missing arguments for codex-reply tool-call; the `threadId` (or `conversationId`) and `prompt` fields are required.',
    );
    expect((await call({ name: 'codex', arguments: { prompt: 'x', sandbox: 'yolo' } })).content[0]!.text).toBe(
      'Failed to parse configuration for Codex tool: unknown variant `yolo`, expected one of `read-only`, `workspace-write`, `danger-full-access`',
    );
    expect((await call({ name: 'codex', arguments: { prompt: 'x', profile: 'missing' } })).content[0]!.text).toMatch(
      /^Failed to load Codex configuration from overrides: config profile `missing` not found/,
    );
    expect((await call({ name: 'codex-reply', arguments: { prompt: 'x' } })).content[0]!.text).toBe(
      'Failed to parse thread_id: either threadId or conversationId must be provided',
    );
    expect((await call({ name: 'codex-reply', arguments: { prompt: 'x', threadId: 'zzz' } })).content[0]!.text).toMatch(/^Failed to parse thread_id: invalid character/);
    const unknown = '019bbed6-1e9e-7f31-984c-a05b65045719';
    expect(await call({ name: 'codex-reply', arguments: { prompt: 'x', conversationId: unknown } })).toEqual({
      content: [{ type: 'text', text: `Session not found for thread_id: ${unknown}` }],
      structuredContent: { threadId: unknown, content: `Session not found for thread_id: ${unknown}` },
      isError: true,
    });
    expect(model.requests).toHaveLength(before);
  });
});

describe('a full turn', () => {
  it('streams every event as codex/event in order, asks approval by elicitation, and answers after task_complete', async () => {
    model.enqueue(shellCall('call1234', ['touch', 'created_by_shell_tool.txt']), responsesTurn({ text: 'File created!' }));
    const c = start();
    await c.initialize();
    const id = c.request('tools/call', { name: 'codex', arguments: { prompt: 'create a file', cwd: sh.work } });
    const elicit = await c.serverRequest('elicitation/create');
    const threadId = (elicit.params as { threadId: string }).threadId;
    expect(elicit.id).toBe(0);
    expect(elicit.params).toEqual({
      message: `Allow Codex to run \`touch created_by_shell_tool.txt\` in \`${sh.work}\`?\nWorking directory URI: file://${sh.work}\nAllowed decisions: ["approved","approved_for_session","abort"]`,
      requestedSchema: { type: 'object', properties: {} },
      threadId,
      codex_elicitation: 'exec-approval',
      codex_mcp_tool_call_id: String(id),
      codex_event_id: String(id),
      codex_call_id: 'call1234',
      codex_command: ['touch', 'created_by_shell_tool.txt'],
      codex_cwd: sh.work,
      codex_parsed_cmd: [{ type: 'unknown', cmd: 'touch created_by_shell_tool.txt' }],
    });
    c.respond(elicit.id, { action: 'accept', content: { decision: 'approved' } });
    const response = await c.response(id);
    expect(resultOf(response)).toEqual({ content: [{ type: 'text', text: 'File created!' }], structuredContent: { threadId, content: 'File created!' } });
    expect(existsSync(path.join(sh.work, 'created_by_shell_tool.txt'))).toBe(true);
    expect(model.requests).toHaveLength(2);

    const events = c.events(id);
    expect(events[0]).toMatchObject({ id: '', msg: { type: 'session_configured', session_id: threadId, model: 'mock-model', approval_policy: 'untrusted' } });
    for (const e of events) expect(e._meta).toEqual({ requestId: id, threadId });
    for (const e of events.slice(1)) expect(e.id).toBe(String(id));
    const types = events.map((e) => e.msg.type);
    const order = ['session_configured', 'task_started', 'user_message', 'exec_command_begin', 'exec_approval_request', 'exec_command_end', 'agent_message', 'task_complete'];
    expect(types.filter((t) => order.includes(t))).toEqual(order);
    const completeAt = c.frames.findIndex((f) => f.method === 'codex/event' && (f.params?.msg as { type: string }).type === 'task_complete');
    expect(completeAt).toBeLessThan(c.frames.indexOf(response));
    expect(c.frames.slice(c.frames.indexOf(response) + 1).filter((f) => f.method === 'codex/event')).toEqual([]);
  });
});

describe('approvals', () => {
  it('exec approvals: spec accept, legacy decision, decline, error answer and a malformed answer', async () => {
    const { c, model, sh } = await shared();
    const answers: { answer: (id: string | number) => void; runs: boolean }[] = [
      { answer: (eid) => c.respond(eid, { decision: 'approved' }), runs: true },
      { answer: (eid) => c.respond(eid, { action: 'accept', decision: 'approved_for_session' }), runs: true },
      { answer: (eid) => c.respond(eid, { action: 'decline' }), runs: false },
      { answer: (eid) => c.respondError(eid, -32000, 'user closed the dialog'), runs: false },
      { answer: (eid) => c.respond(eid, { action: 'accept', content: { decision: 'perhaps' } }), runs: false },
    ];
    for (const [n, { answer, runs }] of answers.entries()) {
      const file = `f${n}.txt`;
      const before = model.requests.length;
      model.enqueue(shellCall(`c${n}`, ['touch', file]), responsesTurn({ text: `done ${n}` }));
      const from = c.frames.length;
      const id = c.request('tools/call', { name: 'codex', arguments: { prompt: `make ${file}`, cwd: sh.work } });
      const elicit = await c.serverRequest('elicitation/create', from);
      answer(elicit.id!);
      const result = resultOf(await c.response(id));
      expect(result.isError).toBeUndefined();
      expect(result.content[0]!.text).toBe(`done ${n}`);
      expect(existsSync(path.join(sh.work, file))).toBe(runs);
      if (!runs) expect(outputsSent(model, before + 1).join('\n')).toContain('rejected by user');
    }
  });

  it('patch approvals ask with codex_changes; accepted patches apply, declined or failed ones do not', async () => {
    const { c, model, sh } = await shared();
    const patch = (file: string) => `*** Begin Patch\n*** Add File: ${file}\n+hello\n*** End Patch`;
    for (const [file, answer] of [['kept.txt', 'accept'], ['refused.txt', 'cancel'], ['errored.txt', 'error']] as const) {
      model.enqueue(responsesTurn({ calls: [{ id: `p-${file}`, name: 'apply_patch', args: { input: patch(file) } }] }), responsesTurn({ text: 'patched' }));
      const from = c.frames.length;
      const id = c.request('tools/call', { name: 'codex', arguments: { prompt: 'patch', cwd: sh.work } });
      const elicit = await c.serverRequest('elicitation/create', from);
      expect(elicit.params).toMatchObject({
        message: 'Allow Codex to apply proposed code changes?',
        requestedSchema: { type: 'object', properties: {} },
        codex_elicitation: 'patch-approval',
        codex_mcp_tool_call_id: String(id),
        codex_event_id: String(id),
        codex_call_id: `p-${file}`,
        codex_changes: { [path.join(sh.work, file)]: { type: 'add', content: 'hello\n' } },
      });
      if (answer === 'error') c.respondError(elicit.id, -32603, 'client crashed');
      else c.respond(elicit.id, answer === 'accept' ? { action: 'accept', content: { decision: 'approved' } } : { action: 'cancel' });
      expect(resultOf(await c.response(id)).content[0]!.text).toBe('patched');
      expect(existsSync(path.join(sh.work, file))).toBe(answer === 'accept');
    }
    expect(await readFile(path.join(sh.work, 'kept.txt'), 'utf8')).toBe('hello\n');
  });

  it('a client without form elicitation is never asked: denied, a warning says why, the call completes', async () => {
    model.enqueue(shellCall('c1', ['touch', 'never.txt']), responsesTurn({ text: 'could not run it' }));
    const c = start();
    await c.initialize({ elicitation: { url: {} } });
    const id = c.request('tools/call', { name: 'codex', arguments: { prompt: 'x', cwd: sh.work } });
    expect(resultOf(await c.response(id)).content[0]!.text).toBe('could not run it');
    expect(c.frames.some((f) => f.method === 'elicitation/create')).toBe(false);
    expect(existsSync(path.join(sh.work, 'never.txt'))).toBe(false);
    const warning = c.events(id).find((e) => e.msg.type === 'warning');
    expect(String(warning?.msg.message)).toMatch(/touch never\.txt.*did not declare form elicitation support/);
    expect(outputsSent(model, 1).join('\n')).toContain('rejected by user');
  });
});

describe('cancellation and concurrency', () => {
  it('cancelling during a pending approval aborts the turn; the late approval changes nothing; ping still works', async () => {
    const { c, model, sh } = await shared();
    const before = model.requests.length;
    const from = c.frames.length;
    model.enqueue(shellCall('c1', ['touch', 'late.txt']));
    const id = c.request('tools/call', { name: 'codex', arguments: { prompt: 'x', cwd: sh.work } });
    const elicit = await c.serverRequest('elicitation/create', from);
    c.notify('notifications/cancelled', { requestId: id, reason: 'user pressed escape' });
    const result = resultOf(await c.response(id));
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Turn aborted.' }] });
    expect(result.structuredContent?.threadId).toEqual(expect.any(String));
    // The elicitation was cancelled towards the client too.
    await c.waitFor((f) => f.method === 'notifications/cancelled' && f.params?.requestId === elicit.id, 'elicitation cancel', 30_000, from);
    c.respond(elicit.id, { action: 'accept', content: { decision: 'approved' } });
    expect((await c.response(c.request('ping'))).result).toEqual({});
    expect(existsSync(path.join(sh.work, 'late.txt'))).toBe(false);
    expect(model.requests).toHaveLength(before + 1);
  });

  it('refuses codex-reply on a busy thread and a reused request id; the original call stays cancellable', async () => {
    const { c, model, sh } = await shared();
    const from = c.frames.length;
    model.enqueue(hangingTurn());
    const id = c.request('tools/call', { name: 'codex', arguments: { prompt: 'long', cwd: sh.work } }, 'req-A');
    const configured = await c.codexEvent('session_configured', from);
    const threadId = (configured.params?._meta as { threadId: string }).threadId;
    await model.waitForHang();
    const busy = resultOf(await c.response(c.request('tools/call', { name: 'codex-reply', arguments: { prompt: 'more', threadId } })));
    expect(busy).toEqual({
      content: [{ type: 'text', text: 'A Codex request is still running for this thread; wait for its response before replying.' }],
      structuredContent: { threadId, content: 'A Codex request is still running for this thread; wait for its response before replying.' },
      isError: true,
    });
    const reused = await c.waitFor(
      (f) => f.id === 'req-A' && 'error' in f,
      'duplicate id error',
      30_000,
      (c.request('ping', undefined, 'req-A'), c.frames.length),
    );
    expect(reused.error).toEqual({ code: -32600, message: 'A request with this ID is still running.' });
    c.notify('notifications/cancelled', { requestId: id });
    const original = await c.waitFor((f) => f.id === id && 'result' in f, 'the original call\'s result', 30_000, from);
    expect(resultOf(original)).toMatchObject({ isError: true, content: [{ text: 'Turn aborted.' }] });
    // The thread is free again: a reply now runs.
    model.enqueue(responsesTurn({ text: 'second answer' }));
    const reply = resultOf(await c.response(c.request('tools/call', { name: 'codex-reply', arguments: { prompt: 'again', threadId } })));
    expect(reply).toEqual({ content: [{ type: 'text', text: 'second answer' }], structuredContent: { threadId, content: 'second answer' } });
  });

  it('runs several calls at once on one connection, each on its own thread', async () => {
    const { c, model, sh } = await shared();
    for (let i = 0; i < 3; i++) model.enqueue(responsesTurn({ text: 'same answer' }));
    const ids = [0, 1, 2].map((i) => c.request('tools/call', { name: 'codex', arguments: { prompt: `task ${i}`, cwd: sh.work } }));
    const results = await Promise.all(ids.map(async (id) => resultOf(await c.response(id))));
    const threads = new Set(results.map((r) => r.structuredContent!.threadId));
    expect(threads.size).toBe(3);
    for (const id of ids) expect(c.events(id).at(-1)?.msg.type).toBe('task_complete');
  });
});

describe('lifecycle', () => {
  it('stdin EOF cancels running turns, shuts threads down and exits 0 within the bound', async () => {
    model.enqueue(hangingTurn());
    const c = start();
    await c.initialize();
    c.request('tools/call', { name: 'codex', arguments: { prompt: 'long', cwd: sh.work } });
    await model.waitForHang();
    const t0 = Date.now();
    c.endStdin();
    expect(await c.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(12_000);
  });

  it('a broken stdout ends the server with a failure even while stdin stays open', async () => {
    const c = start();
    await c.initialize();
    c.child.stdout.destroy();
    c.request('ping');
    c.request('tools/list');
    expect(await c.exited).toEqual({ code: 1, signal: null });
  });

  it('EOF while stdout is not being read: the exit is bounded and reports the failure', async () => {
    const c = start();
    await c.initialize();
    c.child.stdout.pause();
    // Far more than the pipe and socket buffers hold (each answer is about 3 KB).
    for (let i = 0; i < 1000; i++) c.request('tools/list');
    c.endStdin();
    const t0 = Date.now();
    const exit = await c.exited;
    expect(exit.code).toBe(1);
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  it('after a restart, codex-reply continues a thread from its rollout', async () => {
    model.enqueue(responsesTurn({ text: 'first answer' }));
    const first = start();
    await first.initialize();
    const r1 = resultOf(await first.response(first.request('tools/call', { name: 'codex', arguments: { prompt: 'remember 42', cwd: sh.work } })));
    const threadId = r1.structuredContent!.threadId;
    first.endStdin();
    expect((await first.exited).code).toBe(0);

    model.enqueue(responsesTurn({ text: 'it was 42' }));
    const second = start();
    await second.initialize();
    const id = second.request('tools/call', { name: 'codex-reply', arguments: { prompt: 'what was it?', threadId } });
    expect(resultOf(await second.response(id))).toEqual({ content: [{ type: 'text', text: 'it was 42' }], structuredContent: { threadId, content: 'it was 42' } });
    const input = JSON.stringify(model.requests[1]!.body.input);
    expect(input).toContain('remember 42');
    expect(input).toContain('first answer');
    const events = second.events(id);
    expect(events.some((e) => e.msg.type === 'session_configured')).toBe(false);
    expect(events.at(-1)?.msg.type).toBe('task_complete');
  });
});
