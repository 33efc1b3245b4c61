// The long-lived processes the policy matrix runs against, each started once per test file: `serve`
// (aggregating, --transparent, --tool-search) over real upstream processes with tool filters, and
// [server_auth] rules, limits and the audit trail on the real OAuth fixture; spans exported to the
// OTLP receiver through the standard OTEL_* variables. The callers' groups: `team` (most of the
// first upstream and the task server, minus a tool, a resource, a templated item and a task tool),
// `others` (the second upstream only, or nothing) and `ops` (everything: the positive controls).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { spawnServe, type ServeProcess } from '../gateway/serve-process.js';
import { freePort } from '../support/free-port.mjs';
import type { OAuthFixture } from '../fixtures/oauth-fixture.js';
import type { OtlpReceiver } from '../support/otlp-receiver.js';
import { removeTree, tempDir } from '../support/temp.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

export const GATEWAY_FIXTURE = fixtureProgram('gateway-upstream.mjs');
export const TASK_FIXTURE = fixtureProgram('task-upstream.mjs');

/** The limits every HTTP server of the matrix has; each cell is its own caller, so none shares a budget. */
export const LIMITS = { requestsPerMinute: 12, concurrentCalls: 2 };
export const SCOPE = 'mcp';

/** The gateway fixture's filter: `roots` is not enabled, `sample` is disabled. */
const GATEWAY_FILTER = 'enabled_tools = ["echo", "ask", "ask_url", "touch", "seen", "slow", "chatter", "sample", "wait_for_cancel", "log_later"]\ndisabled_tools = ["sample"]';
/** The task fixture's filter: `protocol_error_job` and `multi_input` are not enabled, `slow_compute` and `greet` are disabled. */
const TASK_FILTER = 'enabled_tools = ["work", "plain", "greet", "slow_compute", "confirm_delete", "cancelled"]\ndisabled_tools = ["slow_compute", "greet"]';

export interface UpstreamSpec {
  name: string;
  fixture: 'gateway' | 'tasks';
  filtered?: boolean;
  alwaysLoaded?: boolean;
}

function upstreamToml(home: string, u: UpstreamSpec): string {
  const file = u.fixture === 'gateway' ? GATEWAY_FIXTURE : TASK_FIXTURE;
  const env = u.fixture === 'gateway' ? `env = { GW_NAME = "${u.name}", GW_EXTRAS = "1", GW_INSTRUCTIONS = "Instructions of ${u.name}.", GW_PID_FILE = ${JSON.stringify(pidFile(home, u.name))} }\n` : '';
  const filter = u.filtered ? `${u.fixture === 'gateway' ? GATEWAY_FILTER : TASK_FILTER}\n` : '';
  return `[mcp_servers.${u.name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(file)}]\n${env}${filter}${u.alwaysLoaded ? 'always_loaded = true\n' : ''}\n`;
}

export function pidFile(home: string, server: string): string {
  return path.join(home, `${server}.pid`);
}

export interface RuleSet {
  team: { allow: string[]; deny: string[] };
  others: string[];
}

function rulesToml(rules: RuleSet): string {
  const rule = (group: string, allow: string[], deny: string[] = []) =>
    `[[server_auth.rules]]\nwhen = { claim = "groups", contains = "${group}" }\nallow = ${JSON.stringify(allow)}\ndeny = ${JSON.stringify(deny)}\n`;
  return [rule('team', rules.team.allow, rules.team.deny), rule('others', rules.others), rule('ops', ['*'])].join('\n');
}

export interface PolicyServe {
  url: string;
  home: string;
  work: string;
  serve: ServeProcess;
  stop(): Promise<void>;
}

export interface PolicyHome {
  home: string;
  work: string;
  env: NodeJS.ProcessEnv;
  url?: string;
}

/** A home holding the config (with [server_auth] when `auth` names the HTTP server's URL), its env exporting spans to `receiver`. */
export async function policyHome(opts: { receiver: OtlpReceiver; upstreams: UpstreamSpec[]; rules?: RuleSet; auth?: { fixture: OAuthFixture; url: string } }): Promise<PolicyHome> {
  const home = await tempDir('sb-policy-');
  const work = path.join(home, 'work');
  await mkdir(work);
  const auth = opts.auth
    ? [
        '[server_auth]',
        `issuer = "${opts.auth.fixture.issuer}"`,
        `audience = "${opts.auth.url}"`,
        `required_scopes = ["${SCOPE}"]`,
        `limits = { requests_per_minute = ${LIMITS.requestsPerMinute}, concurrent_calls = ${LIMITS.concurrentCalls} }`,
        '',
        rulesToml(opts.rules!),
      ].join('\n')
    : '';
  await writeFile(path.join(home, 'config.toml'), `${opts.upstreams.map((u) => upstreamToml(home, u)).join('')}${auth}`);
  const env = { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, OTEL_EXPORTER_OTLP_ENDPOINT: opts.receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' };
  return { home, work, env };
}

/** `serve --http` on a home of its own, with [server_auth] and OTLP export. */
export async function startPolicyServe(opts: { fixture: OAuthFixture; receiver: OtlpReceiver; upstreams: UpstreamSpec[]; rules: RuleSet; args?: string[] }): Promise<PolicyServe> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const { home, work, env } = await policyHome({ ...opts, auth: { fixture: opts.fixture, url } });
  const args = opts.args ?? [];
  let serve: ServeProcess;
  try {
    serve = await spawnServe(['--http', `127.0.0.1:${port}`, ...args], { env, cwd: work, timeoutMs: 60_000 });
  } catch (err) {
    await removeTree(home);
    throw err;
  }
  return {
    url,
    home,
    work,
    serve,
    async stop() {
      await serve.stop();
      await removeTree(home);
    },
  };
}

/** The pid an upstream wrote at its start (the gateway restarts it after it dies, with a new pid). */
export async function upstreamPid(home: string, server: string): Promise<number> {
  return Number((await readFile(pidFile(home, server), 'utf8')).trim());
}
