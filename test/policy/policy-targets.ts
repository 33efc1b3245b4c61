// The targets the probes run against: each served surface with the names its clients use, and how a
// new caller (a new subject of a group, with a fresh token) or a stdio client opens a connection.
import { spawn } from 'node:child_process';
import type { OAuthFixture } from '../fixtures/oauth-fixture.js';
import { BIN } from '../support/mcp-server-harness.js';
import type { OtlpReceiver } from '../support/otlp-receiver.js';
import { modernHttp, modernStdio, rawSession, sdkSession, type Conn } from './conn.js';
import { freshSubject, type Group, type Names, type Target } from './policy-run.js';
import { SCOPE, type PolicyServe, type RuleSet, type UpstreamSpec } from './policy-servers.js';
import type { Era, Surface } from './policy-table.js';

const taskArgs = (steps: number) => ({ label: 'matrix', steps, stepMs: 100 });

/** `serve` and `serve --tool-search`: pay (filtered), git (outside the team's view), t (the task server, filtered). */
export const AGGREGATE_UPSTREAMS: UpstreamSpec[] = [
  { name: 'pay', fixture: 'gateway', filtered: true },
  { name: 'git', fixture: 'gateway' },
  { name: 't', fixture: 'tasks', filtered: true },
];
/** `serve --tool-search`: the same, pay always loaded (its tools listed), the others searched. */
export const SEARCH_UPSTREAMS: UpstreamSpec[] = AGGREGATE_UPSTREAMS.map((u) => (u.name === 'pay' ? { ...u, alwaysLoaded: true } : u));
export const AGGREGATE_RULES: RuleSet = {
  team: { allow: ['pay__*', 't__*'], deny: ['pay__ask_url', 'pay__gw://pay/static', 'pay__gw://pay/item/1', 't__confirm_delete'] },
  others: ['git__*'],
};

/** Other spellings of `gw://<s>/static` and `gw://<s>/item/1`, each naming the same resource. */
function spellings(s: string): string[] {
  return [`GW://${s}/static`, `gw://${s.toUpperCase()}/static`, `gw://${s}/./static`, `gw://${s}/x/../static`, `gw://${s}/st%61tic`, `gw://${s}/item/01`, `gw://${s}/item/%31`, `Gw://${s}/item/001`];
}

function gatewayNames(prefix: (server: string, tool: string) => string, s: string, prompt: (p: string) => string): Omit<Names, 'unseenTool' | 'unseenServer' | 'hidden'> {
  return {
    server: s,
    echo: { name: prefix(s, 'echo'), args: { text: 'hi' }, text: `${s}:hi` },
    slow: (ms) => ({ name: prefix(s, 'slow'), args: { ms } }),
    ask: prefix(s, 'ask'),
    notEnabled: prefix(s, 'roots'),
    disabled: prefix(s, 'sample'),
    denied: prefix(s, 'ask_url'),
    resource: {
      readable: `gw://${s}/item/2`,
      denied: `gw://${s}/static`,
      deniedItem: `gw://${s}/item/1`,
      asked: `gw://${s}/asked`,
      spellings: spellings(s),
      template: `gw://${s}/item/{id}`,
      deniedTemplate: '',
      touch: prefix(s, 'touch'),
      seen: prefix(s, 'seen'),
      subscribable: (n) => `gw://${s}/item/7${n}`,
    },
    prompt: { allowed: prompt('greet'), asked: prompt('confirm'), denied: '' },
  };
}

const mcp = (server: string, tool: string) => `mcp__${server}__${tool}`;

export const AGGREGATE_NAMES: Names = (() => {
  const base = gatewayNames(mcp, 'pay', (p) => `pay__${p}`);
  return {
    ...base,
    unseenServer: 'git',
    unseenTool: mcp('git', 'echo'),
    task: { tool: mcp('t', 'work'), args: taskArgs, notEnabled: mcp('t', 'protocol_error_job'), disabled: mcp('t', 'slow_compute'), denied: mcp('t', 'confirm_delete') },
    resource: { ...base.resource!, unseen: 'gw://git/static', deniedTemplate: 'gw://git/item/{id}' },
    prompt: { ...base.prompt!, denied: 'git__greet' },
    hidden: { server: 'git', from: 'team', control: 'others', logLater: mcp('git', 'log_later') },
  };
})();

/** `serve --transparent` over one gateway fixture (`one`); `others` see nothing of it. */
export const TRANSPARENT_UPSTREAMS: UpstreamSpec[] = [{ name: 'one', fixture: 'gateway', filtered: true }];
export const TRANSPARENT_RULES: RuleSet = {
  team: { allow: ['one__*'], deny: ['one__ask_url', 'one__gw://one/static', 'one__gw://one/item/1', 'one__greet', 'one__gw://one/item/{id}'] },
  others: [],
};
export const TRANSPARENT_NAMES: Names = (() => {
  const base = gatewayNames((_s, tool) => tool, 'one', (p) => p);
  return { ...base, resource: { ...base.resource!, deniedTemplate: 'gw://one/item/{id}' }, prompt: { ...base.prompt!, denied: 'greet' }, hidden: { server: 'one', from: 'others', control: 'ops', logLater: 'log_later' } };
})();

/** `serve --transparent` over the task fixture (`t`): the task roads. */
export const TRANSPARENT_TASK_UPSTREAMS: UpstreamSpec[] = [{ name: 't', fixture: 'tasks', filtered: true }];
export const TRANSPARENT_TASK_RULES: RuleSet = { team: { allow: ['t__*'], deny: ['t__confirm_delete'] }, others: [] };
export const TRANSPARENT_TASK_NAMES: Names = {
  server: 't',
  echo: { name: 'plain', args: { text: 'hi' }, text: 'plain:hi' },
  slow: (ms) => ({ name: 'work', args: { label: 'slow', steps: Math.max(1, Math.round(ms / 100)), stepMs: 100 } }),
  notEnabled: 'multi_input',
  disabled: 'greet',
  denied: 'confirm_delete',
  task: { tool: 'work', args: taskArgs, notEnabled: 'protocol_error_job', disabled: 'slow_compute', denied: 'confirm_delete' },
};

function withSubject(conn: Conn, subject: string): Conn & { subject: string } {
  return Object.defineProperty(conn, 'subject', { value: subject, enumerable: true }) as Conn & { subject: string };
}

/** A served HTTP surface (its tokens' audience: its URL unless it says otherwise): each open() is a new caller of the group. */
export function httpTarget(surface: Surface, server: Pick<PolicyServe, 'url' | 'home'> & { audience?: string }, names: Names, fixture: OAuthFixture, receiver: OtlpReceiver): Target {
  const audience = server.audience ?? server.url;
  const token = async (group: Group, extra: Record<string, unknown> = {}) => {
    const subject = freshSubject(group);
    return { subject, token: await fixture.mintAccessToken({ sub: subject, groups: [group], scope: SCOPE, ...extra }, { audience }) };
  };
  return {
    surface,
    transport: 'http',
    names,
    receiver,
    http: { url: server.url, home: server.home, audience, fixture, token },
    async open(era: Era, group: Group, options: { raw?: boolean } = {}) {
      const { token: t, subject } = await token(group);
      const conn = era === 'modern' ? modernHttp(server.url, t) : options.raw ? await rawSession(server.url, t) : await sdkSession({ url: server.url, token: t });
      return withSubject(conn, subject);
    },
  };
}

export interface StdioTarget extends Target {
  /** Ends the processes opened so far. */
  closeAll(): Promise<void>;
}

/** The same surface over stdio: one process per revision, shared by the cells (its one client is the local user). */
export function stdioTarget(surface: Surface, stdio: { args: string[]; env: NodeJS.ProcessEnv; cwd: string }, names: Names, receiver: OtlpReceiver): StdioTarget {
  const conns = new Map<Era, Promise<Conn>>();
  const shared = (era: Era) => {
    let conn = conns.get(era);
    if (!conn) {
      conn = era === 'modern' ? Promise.resolve(modernStdio(stdio.args, stdio.env, stdio.cwd)) : sdkSession(stdio);
      conns.set(era, conn);
    }
    return conn;
  };
  return {
    surface,
    transport: 'stdio',
    names,
    receiver,
    async open(era: Era) {
      // The shared process stays open for the next cell.
      return Object.create(await shared(era), { close: { value: async () => {} }, subject: { value: 'local user' } }) as Conn & { subject: string };
    },
    async initializeRaw(params) {
      const child = spawn(process.execPath, [BIN, ...stdio.args], { env: stdio.env, cwd: stdio.cwd, stdio: ['pipe', 'pipe', 'ignore'] });
      let out = '';
      const answered = new Promise<void>((resolve) => child.stdout.setEncoding('utf8').on('data', (d: string) => ((out += d).includes('"id":0') ? resolve() : undefined)));
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params })}\n`);
      await answered;
      child.stdin.end();
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    },
    async closeAll() {
      const open = [...conns.values()];
      conns.clear();
      await Promise.all(open.map(async (c) => (await c).close()));
    },
  };
}

/**
 * `mcp-server`: its own tools; `team` may use codex and codex-reply and have a command approved outside
 * the sandbox (so its approvals are asked), `others` only codex within the server's own settings, `ops` everything.
 */
export const AGENT_RULES = [
  '[[server_auth.rules]]', 'when = { claim = "groups", contains = "team" }', 'allow = ["codex", "codex-reply"]', 'sandbox = "danger-full-access"',
  '[[server_auth.rules]]', 'when = { claim = "groups", contains = "others" }', 'allow = ["codex"]',
  '[[server_auth.rules]]', 'when = { claim = "groups", contains = "ops" }', 'allow = ["*"]',
].join('\n');
const CODEX = { name: 'codex', args: { prompt: 'x', cwd: '/' }, text: '' };
/** The agent server's names: no [mcp_servers] filter applies to its own tools, so those names name nothing. */
export const AGENT_NAMES: Names = { server: 'codex', echo: CODEX, slow: () => CODEX, notEnabled: 'none', disabled: 'none', denied: 'codex-reply' };
