// The `codex ... mcp-server` and `codex ... exec` command lines people wrote, with `switchboard` in
// front (issue 32): Codex's global options before and after the subcommand start the server, which
// lists `codex` and `codex-reply`; each option reaches the session (the model the fake model server is
// asked for, the sandbox and approval policy of session_configured, the directory, the profile's keys,
// the sandbox a command really runs under); a tool call's own argument wins over it. The built CLI as a
// child process, spoken to by the SDK v2 client over stdio.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responsesTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { runCliProcess } from '../support/cli.js';
import { BIN, requireBuild } from '../support/mcp-server-harness.js';
import { removeTree, tempDir } from '../support/temp.js';

let model: FakeModelServer;
let home: string;
let work: string;
let alt: string;
const env = () => ({ PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_HOME: home, MOCK_KEY: 'sk-mock' });

beforeAll(async () => {
  requireBuild();
  model = await startFakeModelServer();
  home = await tempDir('sb-codex-lines-');
  work = path.join(home, 'work');
  alt = path.join(home, 'alt');
  await mkdir(work);
  await mkdir(alt);
  const provider = (id: string) => [`[model_providers.${id}]`, `base_url = "${model.url}"`, 'wire_api = "responses"', 'request_max_retries = 0', 'stream_max_retries = 0'];
  await writeFile(
    path.join(home, 'config.toml'),
    [
      'model = "mock-model"',
      'model_provider = "mock"',
      'sandbox_mode = "workspace-write"',
      'approval_policy = "on-request"',
      '[profiles.fast]',
      'model = "fast-model"',
      'sandbox_mode = "read-only"',
      '[profiles.other]',
      'model = "other-model"',
      ...provider('mock'),
      'env_key = "MOCK_KEY"',
      ...provider('oss'),
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await model?.close();
  await removeTree(home);
});

interface Served {
  client: Client;
  events: { type: string; [key: string]: unknown }[];
  stderr: () => string;
  close(): Promise<void>;
}

/** `switchboard <args>` as Claude Code or any stdio client starts it. */
async function serve(args: string[]): Promise<Served> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env: env(), cwd: work, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'command-lines', version: '1.0.0' }, { capabilities: {} });
  const events: Served['events'] = [];
  client.fallbackNotificationHandler = async (n) => {
    if (n.method === 'codex/event') events.push((n.params as { msg: Served['events'][number] }).msg);
  };
  await client.connect(transport);
  return { client, events, stderr: () => stderr, close: () => client.close() };
}

type Result = { content: { type: string; text: string }[]; structuredContent?: { threadId: string; content: string }; isError?: boolean };
interface Session {
  model: unknown;
  sandbox: string;
  approval: string;
  cwd: string;
  provider: string;
  result: Result;
}

/** One `codex` call: what the model server was asked for and the session it ran in. */
async function codex(s: Served, args: Record<string, unknown>): Promise<Session> {
  model.enqueue(responsesTurn({ text: 'done' }));
  const from = s.events.length;
  const result = (await s.client.callTool({ name: 'codex', arguments: { prompt: 'go', ...args } })) as Result;
  const configured = s.events.slice(from).find((e) => e.type === 'session_configured') as
    | { model: string; sandbox_policy: { type: string }; approval_policy: string; cwd: string; model_provider_id: string }
    | undefined;
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  return { model: model.requests.at(-1)!.body.model, sandbox: configured!.sandbox_policy.type, approval: configured!.approval_policy, cwd: configured!.cwd, provider: configured!.model_provider_id, result };
}

interface Line {
  /** Words split on spaces; `<alt>` stands for the second working directory (made once the suite starts). */
  line: string;
  defaults: () => Partial<Omit<Session, 'result'>>;
  warns?: RegExp;
}

const LINES: Line[] = [
  { line: '-m gpt-5.3-codex mcp-server', defaults: () => ({ model: 'gpt-5.3-codex', sandbox: 'workspace-write', approval: 'on-request', cwd: work }) },
  { line: 'mcp-server --model gpt-5.3-codex', defaults: () => ({ model: 'gpt-5.3-codex' }) },
  { line: '-s read-only -a never -C <alt> mcp-server', defaults: () => ({ sandbox: 'read-only', approval: 'never', cwd: alt, model: 'mock-model' }) },
  { line: 'mcp-server --sandbox danger-full-access --ask-for-approval untrusted --cd <alt>', defaults: () => ({ sandbox: 'danger-full-access', approval: 'untrusted', cwd: alt }) },
  { line: '-p fast mcp-server', defaults: () => ({ model: 'fast-model', sandbox: 'read-only' }) },
  { line: 'mcp-server --profile fast -m flag-model', defaults: () => ({ model: 'flag-model', sandbox: 'read-only' }) },
  { line: '-c model="c-model" --config approval_policy="on-failure" mcp-server', defaults: () => ({ model: 'c-model', approval: 'on-failure' }) },
  { line: 'mcp-server -c model=c-model --config sandbox_mode="read-only"', defaults: () => ({ model: 'c-model', sandbox: 'read-only' }) },
  { line: '--full-auto mcp-server', defaults: () => ({ sandbox: 'workspace-write', approval: 'on-request' }) },
  { line: 'mcp-server --full-auto -s read-only', defaults: () => ({ sandbox: 'workspace-write', approval: 'on-request' }) },
  { line: '--dangerously-bypass-approvals-and-sandbox mcp-server', defaults: () => ({ sandbox: 'danger-full-access', approval: 'never' }) },
  { line: 'mcp-server --yolo', defaults: () => ({ sandbox: 'danger-full-access', approval: 'never' }) },
  { line: '--oss mcp-server', defaults: () => ({ provider: 'oss', model: 'gpt-oss:20b' }) },
  { line: 'mcp-server --oss -m gpt-oss:120b', defaults: () => ({ provider: 'oss', model: 'gpt-oss:120b' }) },
  { line: '--enable unified_exec --disable web_search_request mcp-server', defaults: () => ({ model: 'mock-model' }), warns: /no feature flag `unified_exec`.*\n.*no feature flag `web_search_request`/ },
  { line: 'mcp-server --enable unified_exec', defaults: () => ({ model: 'mock-model' }), warns: /--enable unified_exec is accepted for Codex command lines and changes nothing/ },
];

describe('switchboard <codex global options> mcp-server', { timeout: 60_000 }, () => {
  it.each(LINES.map((l) => [l.line, l] as const))('%s: starts, lists both tools, the option reaches the session, a call argument wins', async (_name, line) => {
    const s = await serve(line.line.split(' ').map((w) => (w === '<alt>' ? alt : w)));
    try {
      expect((await s.client.listTools()).tools.map((t) => t.name)).toEqual(['codex', 'codex-reply']);
      if (line.warns) expect(s.stderr()).toMatch(line.warns);
      const plain = await codex(s, {});
      expect(plain).toMatchObject(line.defaults());
      // The call's own arguments beat every command-line default.
      const sandbox = plain.sandbox === 'read-only' ? 'workspace-write' : 'read-only';
      const approval = plain.approval === 'untrusted' ? 'never' : 'untrusted';
      const cwd = plain.cwd === alt ? work : alt;
      const own = await codex(s, { model: 'call-model', sandbox, 'approval-policy': approval, cwd });
      expect(own).toMatchObject({ model: 'call-model', sandbox, approval, cwd });
    } finally {
      await s.close();
    }
  });

  it("a call's profile and config beat -m, -s and -p for the settings they name", async () => {
    const s = await serve(['-m', 'flag-model', '-s', 'danger-full-access', '-p', 'fast', 'mcp-server']);
    try {
      expect(await codex(s, {})).toMatchObject({ model: 'flag-model', sandbox: 'danger-full-access' });
      expect(await codex(s, { profile: 'other' })).toMatchObject({ model: 'other-model', sandbox: 'danger-full-access' });
      expect(await codex(s, { config: { model: 'config-model', sandbox_mode: 'read-only' } })).toMatchObject({ model: 'config-model', sandbox: 'read-only' });
      // The server's profile stays in effect, under what the call's config says.
      expect(await codex(s, { config: { approval_policy: 'never' } })).toMatchObject({ model: 'flag-model', approval: 'never' });
    } finally {
      await s.close();
    }
  });

  it('-s decides the sandbox a command really runs under; a call asking for another one gets it', async () => {
    const s = await serve(['-s', 'read-only', '-a', 'never', 'mcp-server']);
    try {
      const file = path.join(work, 'made-by-the-model');
      const touch = { id: 't1', name: 'shell', args: { command: ['touch', file] } };
      model.enqueue(responsesTurn({ calls: [touch] }), responsesTurn({ text: 'tried' }));
      await s.client.callTool({ name: 'codex', arguments: { prompt: 'make it' } });
      expect(s.events.findLast((e) => e.type === 'exec_command_end')?.exit_code).not.toBe(0);
      expect(existsSync(file)).toBe(false);
      model.enqueue(responsesTurn({ calls: [touch] }), responsesTurn({ text: 'made' }));
      await s.client.callTool({ name: 'codex', arguments: { prompt: 'make it', sandbox: 'workspace-write' } });
      expect(existsSync(file)).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('takes codex-reply as clients send it: conversationId, unknown keys; answers with threadId and content', async () => {
    const s = await serve(['-m', 'gpt-5.3-codex', 'mcp-server']);
    try {
      const started = await codex(s, { unknownKey: true, 'include-plan-tool': false });
      const threadId = started.result.structuredContent!.threadId;
      model.enqueue(responsesTurn({ text: 'replied' }));
      const reply = (await s.client.callTool({
        name: 'codex-reply',
        arguments: { conversationId: threadId, prompt: 'more', sessionId: threadId, fullAuto: true, config: { model: 'ignored' } },
      })) as Result;
      expect(reply).toMatchObject({ content: [{ type: 'text', text: 'replied' }], structuredContent: { threadId, content: 'replied' } });
      expect(model.requests.at(-1)!.body.model).toBe('gpt-5.3-codex');
    } finally {
      await s.close();
    }
  });

  it('refuses a bad option value before starting, and -C naming no directory', async () => {
    const bad = await runCliProcess(['-s', 'everything', 'mcp-server'], { home, env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/option '-s, --sandbox <mode>' argument 'everything' is invalid/);
    const both = await runCliProcess(['--yolo', '-a', 'never', 'mcp-server'], { home, env: env() });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/cannot be used with option '-a, --ask-for-approval/);
    const nowhere = await runCliProcess(['-C', path.join(home, 'missing'), 'mcp-server'], { home, env: env() });
    expect(nowhere).toMatchObject({ code: 2, stdout: '' });
    expect(nowhere.stderr).toMatch(/-C .*missing: not a directory/);
  });
});

describe('switchboard <codex global options> exec', { timeout: 60_000 }, () => {
  const exec = async (args: string[]) => {
    model.enqueue(responsesTurn({ text: 'exec done' }));
    const r = await runCliProcess(args, { home, cwd: work, env: env() });
    expect(r.code, r.stderr).toBe(0);
    const configured = r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { msg: { type: string; model: string; sandbox_policy: { type: string }; approval_policy: string; cwd: string } }).msg)
      .find((m) => m.type === 'session_configured')!;
    return { model: model.requests.at(-1)!.body.model, sandbox: configured.sandbox_policy.type, approval: configured.approval_policy, cwd: configured.cwd };
  };

  it.each<[string[], Record<string, string>]>([
    [['-m', 'gpt-5.3-codex', 'exec', '--json', 'hi'], { model: 'gpt-5.3-codex', approval: 'never' }],
    [['exec', '-m', 'gpt-5.3-codex', '--json', 'hi'], { model: 'gpt-5.3-codex' }],
    [['-m', 'root-model', 'exec', '-m', 'exec-model', '--json', 'hi'], { model: 'exec-model' }],
    [['-p', 'fast', 'exec', '--json', 'hi'], { model: 'fast-model', sandbox: 'read-only' }],
    [['--full-auto', 'exec', '--json', 'hi'], { sandbox: 'workspace-write', approval: 'never' }],
    [['exec', '--yolo', '--json', 'hi'], { sandbox: 'danger-full-access', approval: 'never' }],
    [['exec', '--dangerously-bypass-approvals-and-sandbox', '--json', 'hi'], { sandbox: 'danger-full-access' }],
    [['-C', '../alt', '-s', 'read-only', 'exec', '--json', 'hi'], { cwd: '<alt>', sandbox: 'read-only' }],
    [['exec', '--json', 'hi', '-c', 'model="late-model"'], { model: 'late-model' }],
  ])('%j', async (args, expected) => {
    const want = { ...expected, ...(expected.cwd === '<alt>' ? { cwd: alt } : {}) };
    expect(await exec(args)).toMatchObject(want);
  });
});
