// `switchboard exec` as a real child process against the fake model server: JSON and human output,
// exit codes, flags, and resuming a thread after the process was killed mid-turn.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EventSchema, type Event } from '../../src/protocol/index.js';
import { chatTurn, responsesTurn, rsp, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { tempDir, removeTree } from '../support/temp.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'switchboard.js');

let server: FakeModelServer;
let home: string;
const children = new Set<ChildProcess>();

beforeAll(() => {
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
});
beforeEach(async () => {
  server = await startFakeModelServer();
  home = await tempDir('sb-exec-');
  await writeFile(
    path.join(home, 'config.toml'),
    [
      'model = "mock-model"',
      'model_provider = "mock"',
      '[model_providers.mock]',
      'name = "Mock"',
      `base_url = "${server.url}"`,
      'env_key = "MOCK_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 1',
      '[model_providers.oss]',
      `base_url = "${server.url}"`,
    ].join('\n'),
  );
});
afterEach(async () => {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
  await server.close();
  await removeTree(home);
});

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  stdout: () => string;
}

function start(args: string[], env: NodeJS.ProcessEnv = { MOCK_KEY: 'sk-test' }): Run {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    }),
  );
  return { child, done, stdout: () => stdout };
}

const run = (args: string[], env?: NodeJS.ProcessEnv) => start(args, env).done;

function events(stdout: string): Event[] {
  return stdout
    .trim()
    .split('\n')
    .map((l) => EventSchema.parse(JSON.parse(l)));
}

describe('switchboard exec', () => {
  it('--json prints one Event per line and exits 0 on task_complete', async () => {
    server.enqueue(responsesTurn({ text: 'All done.' }));
    const r = await run(['exec', '--json', 'say done']);
    expect(r.code).toBe(0);
    const evs = events(r.stdout);
    expect(evs[0]!.msg).toMatchObject({ type: 'session_configured', model: 'mock-model', model_provider_id: 'mock', approval_policy: 'never', cwd: home });
    expect(evs[0]!.id).toBe('');
    expect(evs.at(-1)!.msg).toMatchObject({ type: 'task_complete', last_agent_message: 'All done.' });
    expect(evs.map((e) => e.msg.type)).toEqual(expect.arrayContaining(['task_started', 'user_message', 'agent_message_delta', 'agent_message', 'token_count']));
    expect(r.stderr).not.toContain('{');
  });

  it('human mode: stdout carries only the final answer when piped; progress goes to stderr', async () => {
    server.enqueue(responsesTurn({ text: 'The answer is 42.' }));
    const r = await run(['exec', 'what is it?']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('The answer is 42.\n');
    expect(r.stderr).toContain('session id: ');
    expect(r.stderr).toContain('what is it?');
    expect(r.stderr).toContain('tokens used: 15');
  });

  it('exits 1 with the error on stderr when the model fails', async () => {
    server.enqueue({ kind: 'status', status: 400, body: { error: { message: 'model not supported', type: 'invalid_request_error' } } });
    const r = await run(['exec', '--json', 'x']);
    expect(r.code).toBe(1);
    expect(events(r.stdout).map((e) => e.msg.type)).toEqual(expect.arrayContaining(['error', 'task_complete']));
    expect(r.stderr).toMatch(/error: unexpected status 400: .*model not supported/);
  });

  it('a missing API key fails at once, naming the variable', async () => {
    const r = await run(['exec', 'x'], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Missing environment variable: `MOCK_KEY`');
    expect(r.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
    expect(existsSync(path.join(home, 'sessions'))).toBe(false);
  });

  it('rejects bad flag values with exit 2', async () => {
    expect((await run(['exec', '-s', 'everything', 'x'])).code).toBe(2);
    expect((await run(['exec', '-C', path.join(home, 'missing'), 'x'])).code).toBe(2);
  });

  it('applies -m, -c, -s, -a and -C to the thread', async () => {
    server.enqueue(responsesTurn({ text: 'ok' }));
    const r = await run(['exec', '--json', '-m', 'flag-model', '-s', 'workspace-write', '-a', 'on-failure', '-C', os.tmpdir(), '-c', 'developer_instructions="from -c"', 'x']);
    expect(r.code).toBe(0);
    expect(events(r.stdout)[0]!.msg).toMatchObject({ model: 'flag-model', approval_policy: 'on-failure', sandbox_policy: { type: 'workspace-write' }, cwd: os.tmpdir() });
    const body = server.requests[0]!.body;
    expect(body.model).toBe('flag-model');
    expect(JSON.stringify(body.input)).toContain('from -c');
  });

  it('--oss uses the local provider over the chat wire API without a key', async () => {
    server.enqueue(chatTurn({ text: 'local answer' }));
    const r = await run(['exec', '--oss', 'x'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('local answer\n');
    expect(server.requests[0]!.url).toBe('/v1/chat/completions');
    expect(server.requests[0]!.body.model).toBe('gpt-oss:20b');
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('exec resume continues a thread after the first process was killed mid-turn', async () => {
    server.enqueue({ kind: 'responses', events: [rsp.created(), rsp.textDelta('working on')], hang: true });
    const first = start(['exec', '--json', 'remember the word pineapple']);
    await server.waitForHang();
    const firstLine = first.stdout().split('\n')[0]!;
    const threadId = (EventSchema.parse(JSON.parse(firstLine)).msg as { session_id: string }).session_id;
    first.child.kill('SIGKILL');
    expect((await first.done).code).toBeNull();

    server.enqueue(responsesTurn({ text: 'The word was pineapple.' }));
    const second = await run(['exec', 'resume', threadId, 'what was the word?', '--json']);
    expect(second.code).toBe(0);
    const evs = events(second.stdout);
    expect(evs[0]!.msg).toMatchObject({ type: 'session_configured', session_id: threadId, history_entry_count: 1 });
    expect(evs.at(-1)!.msg).toMatchObject({ type: 'task_complete', last_agent_message: 'The word was pineapple.' });
    const users = (server.requests[1]!.body.input as { role?: string; content?: unknown }[]).filter((i) => i.role === 'user').map((i) => JSON.stringify(i.content));
    expect(users).toEqual([expect.stringContaining('remember the word pineapple'), expect.stringContaining('what was the word?')]);
  });

  it('exec resume of an unknown thread fails clearly', async () => {
    const r = await run(['exec', 'resume', '0190aaaa-0000-7000-8000-000000000000', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no saved thread 0190aaaa-0000-7000-8000-000000000000/);
  });
});
