// Drives `switchboard mcp-server`: a temp $SWITCHBOARD_HOME whose config.toml points at the fake
// model server, the real CLI as a child process (raw JSON-RPC lines, or SDK clients over stdio and
// HTTP), and an in-process server on an in-memory transport.
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { BIN, REPO } from './cli.js';
import { tempDir, removeTree } from './temp.js';
import { Changes } from './wait.js';

export { BIN, REPO };

export interface ServerHome {
  home: string;
  /** A working directory for the agent inside the home. */
  work: string;
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

/** config.toml as Codex's own tests wrote it: untrusted approvals force elicitation. */
export async function makeServerHome(model: FakeModelServer, extraToml = ''): Promise<ServerHome> {
  const home = await tempDir('sb-mcpserver-');
  const work = path.join(home, 'work');
  await mkdir(work);
  await writeFile(
    path.join(home, 'config.toml'),
    [
      'model = "mock-model"',
      'model_provider = "mock"',
      'approval_policy = "untrusted"',
      'sandbox_mode = "danger-full-access"',
      extraToml,
      '[model_providers.mock]',
      'name = "Mock provider for test"',
      `base_url = "${model.url}"`,
      'env_key = "MOCK_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  return {
    home,
    work,
    env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, MOCK_KEY: 'sk-mock' },
    cleanup: () => removeTree(home),
  };
}

export function requireBuild(): void {
  if (!existsSync(path.join(REPO, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (`npm test` builds before running vitest)');
  }
}

export type Frame = Record<string, unknown> & { id?: string | number | null; method?: string; params?: Record<string, unknown> };

/** The server as a child process spoken to in raw JSON-RPC lines (like Codex's own test harness). */
export class RawStdioClient {
  readonly frames: Frame[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly changes = new Changes();
  private partial = '';
  private nextId = 1;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      const lines = (this.partial + d).split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') this.frames.push(JSON.parse(line) as Frame);
      this.changes.notify();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  static spawn(sh: ServerHome, args: string[] = []): RawStdioClient {
    requireBuild();
    const child = spawn(process.execPath, [BIN, 'mcp-server', ...args], { cwd: sh.work, env: sh.env, stdio: ['pipe', 'pipe', 'pipe'] });
    return new RawStdioClient(child);
  }

  writeLine(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  send(frame: Record<string, unknown>): void {
    this.writeLine(JSON.stringify({ jsonrpc: '2.0', ...frame }));
  }

  /** Sends a request; returns its id. */
  request(method: string, params?: Record<string, unknown>, id: string | number = this.nextId++): string | number {
    this.send({ id, method, ...(params ? { params } : {}) });
    return id;
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.send({ method, ...(params ? { params } : {}) });
  }

  respond(id: string | number | null | undefined, result: unknown): void {
    this.send({ id, result });
  }

  respondError(id: string | number | null | undefined, code: number, message: string): void {
    this.send({ id, error: { code, message } });
  }

  /** Resolves with the first frame (from index `from`) matching `pred`. */
  async waitFor(pred: (f: Frame) => boolean, what: string, timeoutMs = 30_000, from = 0): Promise<Frame> {
    return this.changes.until(
      () => this.frames.slice(from).find(pred),
      () => `timed out waiting for ${what}; frames: ${JSON.stringify(this.frames.map((f) => f.method ?? f.id)).slice(0, 2000)}; stderr: ${this.stderr.slice(-2000)}`,
      timeoutMs,
    );
  }

  response(id: string | number, timeoutMs?: number): Promise<Frame> {
    return this.waitFor((f) => f.id === id && f.method === undefined && ('result' in f || 'error' in f), `response ${id}`, timeoutMs);
  }

  /** The next server→client request with this method (after `from`). */
  serverRequest(method: string, from = 0, timeoutMs?: number): Promise<Frame> {
    return this.waitFor((f) => f.method === method && f.id !== undefined, `${method} request`, timeoutMs, from);
  }

  codexEvent(type: string, from = 0, timeoutMs?: number): Promise<Frame> {
    return this.waitFor((f) => f.method === 'codex/event' && (f.params?.msg as { type?: string })?.type === type, `codex/event ${type}`, timeoutMs, from);
  }

  events(requestId?: string | number): { id: string; msg: Record<string, unknown> & { type: string }; _meta: Record<string, unknown> }[] {
    return this.frames
      .filter((f) => f.method === 'codex/event' && (requestId === undefined || (f.params?._meta as { requestId?: unknown })?.requestId === requestId))
      .map((f) => f.params as never);
  }

  async initialize(capabilities: Record<string, unknown> = { elicitation: {} }, protocolVersion = '2025-06-18'): Promise<Frame> {
    const id = this.request('initialize', { protocolVersion, capabilities, clientInfo: { name: 'elicitation test', version: '0.0.0' } });
    const response = await this.response(id);
    this.notify('notifications/initialized');
    return response;
  }

  endStdin(): void {
    this.child.stdin.end();
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.stdin.end();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}

/** `switchboard mcp-server --http` as a child process; resolves once it printed its URL. */
export async function spawnHttpServer(sh: ServerHome, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcess; output: { stderr: string }; stop(): Promise<number | null> }> {
  requireBuild();
  const child = spawn(process.execPath, [BIN, 'mcp-server', '--http', '127.0.0.1:0', ...args], { cwd: sh.work, env: { ...sh.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stderr: '' };
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output.stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL within 30 s; stderr: ${output.stderr}`)), 30_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening; stderr: ${output.stderr}`));
    });
  });
  return {
    url,
    child,
    output,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
