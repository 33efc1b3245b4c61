// `switchboard mcp-server --http` as a child process with [server_auth] on the real OAuth fixture,
// for the tests of what callers' `codex` arguments may change: a home whose config.toml points at the
// fake model server, tokens minted for claims, and one call read with its `codex/event`s.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { spawnHttpServer } from '../support/mcp-server-harness.js';
import { RawHttpSession, readSse } from '../support/raw-http-session.js';
import { removeTree, tempDir } from '../support/temp.js';

export const AUDIENCE = 'https://agent.example.com/mcp';

export interface CeilingServer {
  url: string;
  home: string;
  /** The server's working directory. */
  work: string;
  fixture: OAuthFixture;
  stderr(): string;
  /** An initialized 2025 session for a token with these claims (or the static token). */
  session(claims: Record<string, unknown> | string): Promise<RawHttpSession>;
  token(claims: Record<string, unknown>): Promise<string>;
  stop(): Promise<void>;
}

export interface CeilingServerOptions {
  /** TOML after the model settings: [server_auth] rules, profiles, ... (issuer and audience are added). */
  toml?: string;
  /** Top-level keys before any table. */
  topLevel?: string;
  env?: NodeJS.ProcessEnv;
  args?: string[];
}

export async function startCeilingServer(model: FakeModelServer, opts: CeilingServerOptions = {}): Promise<CeilingServer> {
  const fixture = await startOAuthFixture({ jwt: { audience: AUDIENCE } });
  const home = await tempDir('sb-ceilings-');
  const work = path.join(home, 'work');
  await mkdir(work);
  await writeFile(
    path.join(home, 'config.toml'),
    [
      'model = "mock-model"',
      'model_provider = "mock"',
      opts.topLevel ?? '',
      '[model_providers.mock]',
      `base_url = "${model.url}"`,
      'env_key = "MOCK_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '[server_auth]',
      `issuer = "${fixture.issuer}"`,
      `audience = "${AUDIENCE}"`,
      opts.toml ?? '',
      '',
    ].join('\n'),
  );
  const env = { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, MOCK_KEY: 'sk-mock', ...opts.env };
  let http: Awaited<ReturnType<typeof spawnHttpServer>>;
  try {
    http = await spawnHttpServer({ home, work, env, cleanup: () => removeTree(home) }, opts.args ?? []);
  } catch (err) {
    await fixture.close();
    await removeTree(home);
    throw err;
  }
  const token = (claims: Record<string, unknown>) => fixture.mintAccessToken(claims);
  return {
    url: http.url,
    home,
    work,
    fixture,
    stderr: () => http.output.stderr,
    token,
    async session(claims) {
      const s = new RawHttpSession(http.url, typeof claims === 'string' ? claims : await token(claims));
      await s.initialize();
      return s;
    },
    async stop() {
      await http.stop();
      await fixture.close();
      await removeTree(home);
    },
  };
}

export interface ToolAnswer {
  result: { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: { threadId?: string; content?: string } };
  /** The `codex/event` messages of the call, in order. */
  events: { type: string; [key: string]: unknown }[];
  /** Server-to-client requests seen on the call's stream (approvals). */
  requests: { method: string; params: Record<string, unknown> }[];
}

/**
 * One tools/call on a session, its stream read to the end. A request the server sends on the way (an
 * approval) gets `answer`: declined unless the test says otherwise.
 */
export async function callTool(
  s: RawHttpSession,
  name: string,
  args: Record<string, unknown>,
  opts: { params?: Record<string, unknown>; answer?: Record<string, unknown> } = {},
): Promise<ToolAnswer> {
  const id = `call-${Math.random().toString(36).slice(2)}`;
  const res = await s.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...opts.params } });
  const events: ToolAnswer['events'] = [];
  const requests: ToolAnswer['requests'] = [];
  if ((res.headers.get('content-type') ?? '').includes('application/json')) return { result: ((await res.json()) as { result: ToolAnswer['result'] }).result, events, requests };
  for await (const ev of readSse(res)) {
    const m = ev.message;
    if (!m) continue;
    if (m.method === 'codex/event') events.push((m.params as { msg: ToolAnswer['events'][number] }).msg);
    else if (m.method !== undefined && m.id !== undefined) {
      requests.push({ method: m.method, params: m.params ?? {} });
      await s.notifyResponse(m.id, opts.answer ?? { action: 'decline' });
    } else if (m.id === id) return { result: m.result as ToolAnswer['result'], events, requests };
  }
  throw new Error(`the stream of ${name} ended without its response`);
}
