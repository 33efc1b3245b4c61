// `switchboard mcp-server --http` as a child process with [server_auth] on the real OAuth fixture,
// for the tests of what callers' `codex` arguments may change: a home whose config.toml points at the
// fake model server, tokens minted for claims, and one call read with its `codex/event`s.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-fixture.js';
import { makeServerHome, spawnHttpServer } from '../support/mcp-server-harness.js';
import { RawHttpSession, readSse } from '../support/raw-http-session.js';

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
  const sh = await makeServerHome(model, opts.topLevel ?? '');
  // The harness's policies force approvals and drop the sandbox; these tests start from the defaults.
  const file = path.join(sh.home, 'config.toml');
  const text = (await readFile(file, 'utf8')).replace('approval_policy = "untrusted"\n', '').replace('sandbox_mode = "danger-full-access"\n', '');
  if (/^(approval_policy|sandbox_mode) = "(untrusted|danger-full-access)"$/m.test(text)) throw new Error('the harness config changed: update startCeilingServer');
  await writeFile(file, `${text}[server_auth]\nissuer = "${fixture.issuer}"\naudience = "${AUDIENCE}"\n${opts.toml ?? ''}\n`);
  let http: Awaited<ReturnType<typeof spawnHttpServer>>;
  try {
    http = await spawnHttpServer(sh, opts.args ?? [], opts.env);
  } catch (err) {
    await fixture.close();
    await sh.cleanup();
    throw err;
  }
  const token = (claims: Record<string, unknown>) => fixture.mintAccessToken(claims);
  return {
    url: http.url,
    home: sh.home,
    work: sh.work,
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
      await sh.cleanup();
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
