// A throwaway cluster on loopback: a PostgreSQL (initdb in a temporary folder), N replicas of
// `switchboard mcp-server --http` and of `switchboard serve --http` (the built CLI) pointed at it, and
// nginx in front (generated config, plain round robin, no stickiness). Every child dies with this
// process (setpriv --pdeathsig); stop() ends them in order and removes the folder.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startPostgres } from '../../test/support/postgres.ts';
import { freePort } from '../../test/support/free-port.mjs';
import { startEchoModel } from './echo-model.mjs';

export const REPO = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(REPO, 'bin', 'switchboard.js');
const UPSTREAM = path.join(REPO, 'test', 'fixtures', 'gateway-upstream.mjs');
const DB_VAR = 'SWITCHBOARD_DATABASE_URL';

const withDeathSignal = (cmd, args) => (existsSync('/usr/bin/setpriv') ? ['setpriv', ['--pdeathsig', 'SIGKILL', '--', cmd, ...args]] : [cmd, args]);

export function nginxBinary() {
  for (const p of [process.env.SWITCHBOARD_NGINX, '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) if (p && existsSync(p)) return p;
  return null;
}

function agentToml(modelUrl, extra) {
  return [
    'model = "echo-model"',
    'model_provider = "echo"',
    'approval_policy = "never"',
    'sandbox_mode = "read-only"',
    extra,
    // The tests' clients hold the static token and answer approvals (which leave the sandbox), so the
    // token is trusted as the operator's; no audit trail (nothing here reads it).
    '[server_auth]',
    'trust_static_token = true',
    'audit = false',
    '[store]',
    `postgres_url_env_var = "${DB_VAR}"`,
    '[model_providers.echo]',
    'name = "echo model"',
    `base_url = "${modelUrl}"`,
    'env_key = "ECHO_MODEL_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
}

function gatewayToml(extra) {
  return [extra, '[store]', `postgres_url_env_var = "${DB_VAR}"`, '[mcp_servers.demo]', `command = ${JSON.stringify(process.execPath)}`, `args = [${JSON.stringify(UPSTREAM)}]`, ''].join('\n');
}

/** One replica: a built CLI child serving HTTP; `url` is its own /mcp endpoint. */
class Replica {
  constructor(name, kind, home, env, args, log) {
    Object.assign(this, { name, kind, home, env, args, log });
    this.child = null;
    this.url = null;
    this.port = 0;
  }

  async start() {
    const listen = `127.0.0.1:${this.port}`;
    const command = this.kind === 'agent' ? ['mcp-server', '--http', listen] : ['serve', '--http', listen];
    const [cmd, argv] = withDeathSignal(process.execPath, [BIN, ...command, ...this.args]);
    const child = spawn(cmd, argv, { cwd: this.home, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr = (stderr + d).slice(-4000);
      for (const line of d.split('\n')) if (line) this.log(`[${this.name}] ${line}`);
    });
    this.url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d) => {
        out += d;
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code, signal) => reject(new Error(`${this.name} exited (${code ?? signal}) before listening: ${stderr.trim()}`)));
    });
    this.port = Number(new URL(this.url).port);
    return this;
  }

  get pid() {
    return this.child?.pid;
  }

  get alive() {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** kill -9: no shutdown, no lease released, sockets dropped. */
  async kill(signal = 'SIGKILL') {
    const child = this.child;
    if (!child || !this.alive) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // setpriv execs the CLI, so the child is the replica itself.
    child.kill(signal);
    await exited;
  }

  async stop() {
    await this.kill('SIGTERM');
  }
}

function nginxConf(dir, listenPorts, groups) {
  // No upstream keepalive: a POST on a reused connection to a replica that just died is not retried
  // (nginx cannot tell it never arrived); a fresh connection is refused, and nginx tries the next replica.
  const upstreams = Object.entries(groups)
    .map(([name, replicas]) => `  upstream ${name} {\n${replicas.map((r) => `    server 127.0.0.1:${r.port} max_fails=1 fail_timeout=5s;`).join('\n')}\n  }`)
    .join('\n');
  const servers = Object.keys(groups)
    .map(
      (name) => `  server {
    listen 127.0.0.1:${listenPorts[name]};
    location / {
      proxy_pass http://${name};
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout;
      # Which replica answered (a failed try and the next one show as "a, b"): the load test's attribution.
      add_header X-Upstream $upstream_addr always;
    }
  }`,
    )
    .join('\n');
  // One process (master_process off): a throwaway front that dies with its parent, no privilege switch.
  return `worker_processes 1;
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${upstreams}
${servers}
}
`;
}

async function startNginx(dir, groups, log) {
  const bin = nginxBinary();
  if (!bin) throw new Error('nginx not found (apt-get install nginx, or set $SWITCHBOARD_NGINX)');
  await mkdir(dir, { recursive: true });
  const ports = Object.fromEntries(await Promise.all(Object.keys(groups).map(async (g) => [g, await freePort()])));
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(conf, nginxConf(dir, ports, groups));
  const check = spawnSync(bin, ['-t', '-q', '-c', conf, '-p', dir], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx rejected its generated config: ${check.stderr}`);
  const [cmd, argv] = withDeathSignal(bin, ['-c', conf, '-p', dir]);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.setEncoding('utf8').on('data', (d) => log(`[nginx] ${d.trim()}`));
  // Ready once every front port accepts a connection.
  for (const port of Object.values(ports)) {
    for (let i = 0; ; i += 1) {
      if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}); see ${dir}/error.log`);
      const ok = await new Promise((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => {
          s.end();
          resolve(true);
        });
        s.once('error', () => resolve(false));
      });
      if (ok) break;
      if (i > 200) throw new Error('nginx did not start listening');
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const urls = Object.fromEntries(Object.entries(ports).map(([g, p]) => [g, `http://127.0.0.1:${p}/mcp`]));
  return {
    urls,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
    },
  };
}

/**
 * Start the whole cluster. Options: replicas (3), agents/gateways (default: replicas each), agentToml and
 * gatewayToml (extra config.toml lines), modelUrl (default: a built-in echo model), env, log(line), nginx (true).
 */
export async function startCluster(options = {}) {
  const n = options.replicas ?? 3;
  const log = options.log ?? (() => {});
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const root = await mkdtemp(path.join(os.tmpdir(), 'sb-cluster-'));
  const cleanup = [];
  const stop = async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn().catch((err) => log(`stop: ${err.message}`));
    await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  };
  try {
    const postgres = await startPostgres({ log: (l) => log(`[postgres] ${l}`) });
    cleanup.push(() => postgres.stop());
    const echo = options.modelUrl ? null : await startEchoModel();
    if (echo) cleanup.push(() => echo.close());
    const modelUrl = options.modelUrl ?? echo.url;
    const token = options.token ?? randomBytes(24).toString('base64url');
    const replicaEnv = (home) => ({
      PATH: process.env.PATH,
      HOME: home,
      SWITCHBOARD_HOME: home,
      SWITCHBOARD_MCP_TOKEN: token,
      [DB_VAR]: postgres.url,
      ECHO_MODEL_KEY: 'echo',
      ...options.env,
    });
    const make = async (kind, i) => {
      const name = `${kind}-${i + 1}`;
      const home = path.join(root, name);
      await mkdir(path.join(home, 'work'), { recursive: true });
      await writeFile(path.join(home, 'config.toml'), kind === 'agent' ? agentToml(modelUrl, options.agentToml ?? '') : gatewayToml(options.gatewayToml ?? ''), { mode: 0o600 });
      return new Replica(name, kind, home, replicaEnv(home), options.args?.[kind] ?? [], log);
    };
    const agents = await Promise.all(Array.from({ length: options.agents ?? n }, (_, i) => make('agent', i)));
    const gateways = await Promise.all(Array.from({ length: options.gateways ?? n }, (_, i) => make('gateway', i)));
    const all = [...agents, ...gateways];
    cleanup.push(async () => void (await Promise.all(all.map((r) => r.stop()))));
    // The first replica migrates the schema alone; the others then start together.
    await all[0].start();
    await Promise.all(all.slice(1).map((r) => r.start()));
    let front = { urls: {} };
    if (options.nginx !== false) {
      const groups = {};
      if (agents.length) groups.agents = agents;
      if (gateways.length) groups.gateways = gateways;
      front = await startNginx(path.join(root, 'nginx'), groups, log);
      cleanup.push(() => front.stop()); // stopped first, so no request reaches a replica that is going away
    }
    return { root, postgres, databaseUrl: postgres.url, modelUrl, echo, token, agents, gateways, agentUrl: front.urls.agents ?? null, gatewayUrl: front.urls.gateways ?? null, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
