#!/usr/bin/env node
// `npm run demo`: switchboard's main job on real third-party MCP servers installed as dependencies —
// server-everything over stdio and over Streamable HTTP, server-filesystem on a temporary folder.
// It writes an example config into a temporary SWITCHBOARD_HOME (your own config is not touched),
// then runs the real CLI: live startup, the aggregated catalog, one routed call per server, and a
// warm start from startup snapshots. Everything stays on 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const require = createRequire(import.meta.url);
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const filesystem = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const node = process.execPath;
const bin = path.join(repo, 'bin', 'switchboard.js');
const q = JSON.stringify;
const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

function startHttpEverything(port) {
  const child = spawn(node, ['--import', path.join(here, 'loopback-only.mjs'), everything, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (d) => {
      seen += d;
      if (/listening on port/i.test(seen)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`server-everything (HTTP) exited with ${code}: ${seen}`)));
  });
}

// Run as a user would, from the project folder: switchboard offers its working directory as the
// workspace root, and server-filesystem serves the client's roots in place of its arguments.
function run(args, env, { quiet = false } = {}) {
  process.stdout.write(`\n${bold(`$ switchboard ${args.map((a) => (/[\s"{]/.test(a) ? `'${a}'` : a)).join(' ')}`)}${quiet ? ' > /dev/null' : ''}\n`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(node, [bin, ...args], { env, cwd: files, stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = Math.round(performance.now() - started);
      if (code === 0) resolve(ms);
      else reject(new Error(`switchboard ${args.join(' ')} exited with ${code}`));
    });
  });
}

const home = await mkdtemp(path.join(os.tmpdir(), 'switchboard-demo-'));
const files = path.join(home, 'files');
let http;
try {
  await (await import('node:fs/promises')).mkdir(files);
  await writeFile(path.join(files, 'hello.txt'), 'Hello from the switchboard demo.\n');
  await writeFile(path.join(files, 'notes.md'), '# Notes\n\n- one catalog, many servers\n');
  const port = await freePort();
  http = await startHttpEverything(port);
  const config = [
    '# Example config written by `npm run demo`.',
    '[mcp_servers.everything]',
    `command = ${q(node)}`,
    `args = [${q(everything)}, "stdio"]`,
    '',
    '[mcp_servers.everything-http]',
    `url = "http://127.0.0.1:${port}/mcp"`,
    '',
    '[mcp_servers.files]',
    `command = ${q(node)}`,
    `args = [${q(filesystem)}, ${q(files)}]`,
    '',
  ].join('\n');
  await writeFile(path.join(home, 'config.toml'), config);
  const env = { ...process.env, SWITCHBOARD_HOME: home };
  process.stdout.write(`${bold('switchboard demo')} — example config in ${path.join(home, 'config.toml')}\n`);
  await run(['mcp', 'list'], env);
  await run(['mcp', 'status'], env);
  await run(['mcp', 'tools'], env);
  await run(['mcp', 'call', 'mcp__everything__echo', '--args', JSON.stringify({ message: 'hello from switchboard' })], env);
  await run(['mcp', 'call', 'mcp__everything-http__get-sum', '--args', JSON.stringify({ a: 2, b: 40 })], env);
  await run(['mcp', 'call', 'mcp__files__read_text_file', '--args', JSON.stringify({ path: path.join(files, 'hello.txt') })], env);
  const warm = await run(['mcp', 'tools', '--no-wait'], env, { quiet: true });
  process.stdout.write(`${bold('warm start:')} the whole catalog, answered from startup snapshots without waiting for any server, in ${warm} ms (including CLI start)\n`);
} finally {
  http?.kill('SIGTERM');
  await rm(home, { recursive: true, force: true });
}
