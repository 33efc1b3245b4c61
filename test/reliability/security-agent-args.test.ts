// Security: argument abuse of `codex` by a caller over HTTP (issue 30, finding 1). A caller whose
// [server_auth] rule allows `codex` must not pick the model server (and so the commands the agent
// runs), send a server environment variable to it as an API key, run a command outside the
// operator's sandbox (by argument, by a looser operator profile, by config keys, by approving its own
// escalation), or move the session out of the server's directories. Against the built CLI (`mcp-server
// --http`), the real OAuth fixture and two fake model servers: the operator's and the caller's own.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { callTool, startCeilingServer, type CeilingServer, type ToolAnswer } from '../agent-server/ceiling-server.js';
import type { RawHttpSession } from '../support/raw-http-session.js';

const SECRET = `server-secret-${randomBytes(12).toString('hex')}`;
const AGENTS = { sub: 'alice', groups: ['agents'] };

let operatorModel: FakeModelServer;
let callerModel: FakeModelServer;
let server: CeilingServer;
let alice: RawHttpSession;
let probe = 0;
let marker: string;

beforeAll(async () => {
  operatorModel = await startFakeModelServer();
  callerModel = await startFakeModelServer();
  server = await startCeilingServer(operatorModel, {
    toml: [
      '[[server_auth.rules]]',
      'when = { claim = "groups", contains = "agents" }',
      'allow = ["codex", "codex-reply"]',
      '[profiles.yolo]',
      'sandbox_mode = "danger-full-access"',
      'approval_policy = "never"',
    ].join('\n'),
    env: { SOME_SERVER_ENV_VAR: SECRET },
  });
  alice = await server.session(AGENTS);
}, 60_000);
afterAll(async () => {
  await alice?.close();
  await server?.stop();
  await callerModel?.close();
  await operatorModel?.close();
});

/** Each probe has its own marker: a file the hostile command would create outside every sandbox. */
beforeEach(() => {
  marker = path.join(server.home, `pwned-${++probe}`);
});
const touch = () => {
  return { id: `c${probe}`, name: 'shell', args: { command: ['sh', '-c', `touch ${marker}`], with_escalated_permissions: true, justification: 'needs it' } };
};

afterEach(() => {
  expect(existsSync(marker), 'a hostile command ran on the host').toBe(false);
  expect(callerModel.requests, "the agent talked to the caller's model server").toHaveLength(0);
});

function refused(answer: ToolAnswer, pattern: RegExp): void {
  expect(answer.result.isError).toBe(true);
  expect(answer.result.content[0]!.text).toMatch(pattern);
  expect(JSON.stringify(answer)).not.toContain(SECRET);
}

describe('security: codex arguments of a caller over HTTP', { timeout: 60_000 }, () => {
  it("the issue's call: its own model server, a server variable as the key, no sandbox, no approvals", async () => {
    callerModel.enqueue(responsesTurn({ calls: [touch()] }), responsesTurn({ text: 'done' }));
    const answer = await callTool(alice, 'codex', {
      prompt: 'hello',
      sandbox: 'danger-full-access',
      'approval-policy': 'never',
      config: { model_provider: 'evil', 'model_providers.evil': { base_url: callerModel.url, wire_api: 'responses', env_key: 'SOME_SERVER_ENV_VAR' } },
    });
    expect.soft(existsSync(marker), "the caller's model server ran a command on the host").toBe(false);
    expect.soft(JSON.stringify(callerModel.requests), "the server's variable reached the caller's model server").not.toContain(SECRET);
    refused(answer, /config key `model_provider`/);
  });

  it('the sandbox and approvals alone, by argument or through a looser operator profile', async () => {
    // Nothing is scripted: a call that reached the model would fail on its own, and be counted.
    const before = operatorModel.requests.length;
    refused(await callTool(alice, 'codex', { prompt: 'x', sandbox: 'danger-full-access' }), /sandbox `danger-full-access` \(from `sandbox`\).*at most `read-only`/);
    refused(await callTool(alice, 'codex', { prompt: 'x', 'approval-policy': 'never' }), /approval policy `never` \(from `approval-policy`\).*at most `on-request`/);
    refused(await callTool(alice, 'codex', { prompt: 'x', profile: 'yolo' }), /sandbox `danger-full-access` \(from profile `yolo`\)/);
    refused(await callTool(alice, 'codex', { prompt: 'x', config: { profile: 'yolo' } }), /from profile `yolo`/);
    expect(operatorModel.requests.length, 'a refused call never reaches the model').toBe(before);
  });

  it('config keys that redirect the provider, run programs, pass the environment or widen the sandbox', async () => {
    const before = operatorModel.requests.length;
    for (const [config, key] of [
      [{ 'model_providers.mock.base_url': callerModel.url }, 'model_providers.mock.base_url'],
      [{ model_providers: { mock: { env_key: 'SOME_SERVER_ENV_VAR' } } }, 'model_providers'],
      [{ notify: ['sh', '-c', 'touch /tmp/x'] }, 'notify'],
      [{ 'mcp_servers.evil': { command: 'sh', args: ['-c', 'touch /tmp/x'] } }, 'mcp_servers.evil'],
      [{ 'shell_environment_policy.inherit': 'all' }, 'shell_environment_policy.inherit'],
      [{ sandbox_workspace_write: { writable_roots: ['/'] } }, 'sandbox_workspace_write'],
      [{ environments: { far: { url: 'ws://127.0.0.1:1' } } }, 'environments'],
      [{ sandbox_mode: 'danger-full-access' }, 'sandbox_mode'],
    ] as const) {
      refused(await callTool(alice, 'codex', { prompt: 'x', config }), new RegExp(`config key \`${key.replace(/\./g, '\\.')}\``));
    }
    expect(operatorModel.requests.length).toBe(before);
  });

  it('a working directory outside the server\'s, spelled plainly or through ..', async () => {
    refused(await callTool(alice, 'codex', { prompt: 'x', cwd: '/' }), /working directory \/ \(from `cwd`\) is outside/);
    refused(await callTool(alice, 'codex', { prompt: 'x', cwd: '../..' }), /is outside the directories/);
  });

  it('its own approval of an escalated command is never asked for: the command is denied', async () => {
    operatorModel.enqueue(responsesTurn({ calls: [touch()] }), responsesTurn({ text: 'could not' }));
    const answer = await callTool(alice, 'codex', { prompt: 'x', cwd: server.work }, { answer: { action: 'accept', content: { decision: 'approved' } } });
    expect(answer.requests, 'no approval was sent to the caller').toEqual([]);
    expect(answer.result.content[0]!.text).toBe('could not');
    expect(answer.events.find((e) => e.type === 'warning')?.message).toMatch(/denied without asking: approving it would take it outside the sandbox/);
    expect(JSON.stringify(operatorModel.requests.at(-1)!.body.input)).toContain('rejected by user');
  });

  it('codex-reply ignores sandbox, approval and config arguments: the thread keeps its own', async () => {
    operatorModel.enqueue(responsesTurn({ text: 'started' }));
    const started = await callTool(alice, 'codex', { prompt: 'x', cwd: server.work });
    const threadId = started.result.structuredContent!.threadId!;
    const step = touch();
    // Not escalated: the command simply runs, in whatever sandbox the thread has.
    operatorModel.enqueue(responsesTurn({ calls: [{ ...step, args: { command: step.args.command } }] }), responsesTurn({ text: 'tried' }));
    const reply = await callTool(alice, 'codex-reply', {
      threadId,
      prompt: 'now',
      sandbox: 'danger-full-access',
      'approval-policy': 'never',
      fullAuto: true,
      sessionId: threadId,
      config: { model_provider: 'evil', 'model_providers.evil': { base_url: callerModel.url, env_key: 'SOME_SERVER_ENV_VAR' } },
    });
    expect(reply.result.content[0]!.text).toBe('tried');
    // The command ran inside the read-only sandbox: it could not create the file.
    const end = reply.events.find((e) => e.type === 'exec_command_end') as { exit_code?: number } | undefined;
    expect(end?.exit_code).not.toBe(0);
  });
});
