// The HTTP fuzz driver: a FuzzTarget for `switchboard mcp-server --http` / `serve --http` (the
// built CLI on 127.0.0.1:0 with a token file). One initialized session; each frame is one POST
// (a few in flight at once), each HTTP probe one request; every answer is judged, then a ping.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createParser } from 'eventsource-parser';
import { started, type BatchReport, type FuzzTarget } from './fuzz-target.js';
import { expectationOf, probeRequest, type HttpProbe } from './http-probes.js';
import { invalidReply, withReplyId, REPLY_ID_PREFIX, type Frame } from './jsonrpc-frames.js';

export interface HttpTargetSpec {
  name: string;
  /** The CLI and its subcommand arguments; `--http` and `--token-file` are added. */
  command: string;
  args: string[];
  /** Lines of the temporary home's config.toml. */
  config: string[];
  safeTools: readonly string[];
  /** POSTs in flight at once. */
  concurrency: number;
  /** A request that takes a while (method and params), to hold an id running; without it, `ping`. */
  slowRequest?: { method: string; params?: Record<string, unknown> };
  /** How long one POST may take to be fully answered. */
  requestTimeoutMs?: number;
}

const PROTOCOL_VERSION = '2025-11-25';
const INITIALIZE = { jsonrpc: '2.0', id: 'fz:init', method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } };
const preview = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);

/** One HTTP exchange as the driver saw it: status, content type and the JSON-RPC messages of the body. */
export interface HttpAnswer {
  status: number;
  contentType: string;
  messages: Record<string, unknown>[];
  /** Body text that is not JSON-RPC (JSON bodies and SSE data), for the report. */
  invalid: string[];
}

export class HttpTarget implements FuzzTarget {
  readonly name: string;
  readonly safeTools: readonly string[];
  url = '';
  sessionId = '';
  readonly token = randomBytes(24).toString('base64url');
  private readonly home = mkdtempSync(path.join(os.tmpdir(), 'sb-fuzz-http-'));
  private child: ChildProcessWithoutNullStreams | undefined;
  private stdout = '';
  private stderrTail = '';
  private nextId = 0;
  private reusedRefused = 0;

  constructor(private readonly spec: HttpTargetSpec) {
    this.name = spec.name;
    this.safeTools = spec.safeTools;
  }

  async start(): Promise<void> {
    writeFileSync(path.join(this.home, 'config.toml'), `${this.spec.config.join('\n')}\n`);
    const tokenFile = path.join(this.home, 'token');
    writeFileSync(tokenFile, `${this.token}\n`, { mode: 0o600 });
    const args = [this.spec.command, ...this.spec.args, '--http', '127.0.0.1:0', '--token-file', tokenFile];
    // No model key: should a frame ever start an agent turn, it fails at once without the network.
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: this.home, SWITCHBOARD_HOME: this.home } });
    this.child = child;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderrTail = (this.stderrTail + chunk).slice(-4_000)));
    this.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no "listening on" line within 30 s; stderr: ${this.stderrTail}`)), 30_000);
      child.once('exit', (code) => reject(new Error(`${this.name} exited (${code}) before listening; stderr: ${this.stderrTail}`)));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        this.stdout += chunk;
        const url = /^listening on (\S+)\n/.exec(this.stdout)?.[1];
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      });
    });
    const init = await this.post(JSON.stringify(INITIALIZE), {});
    const sid = init.headers.get('mcp-session-id');
    const answer = await this.read(init);
    if (init.status !== 200 || !sid || !answer.messages.some((m) => m.id === 'fz:init' && 'result' in m)) {
      throw new Error(this.report(`initialize: HTTP ${init.status}, session ${sid}, ${JSON.stringify(answer.messages)}`, []));
    }
    this.sessionId = sid;
    const initialized = await this.post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    await initialized.arrayBuffer();
    if (initialized.status !== 202) throw new Error(this.report(`notifications/initialized: HTTP ${initialized.status}`, []));
  }

  /** Headers of a request in the session (overridable per probe). */
  headers(extra: Record<string, string | null> = {}): Record<string, string> {
    const all: Record<string, string | null> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${this.token}`,
      ...(this.sessionId ? { 'mcp-session-id': this.sessionId, 'mcp-protocol-version': PROTOCOL_VERSION } : {}),
      ...extra,
    };
    return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== null));
  }

  post(body: string | Uint8Array, extra: Record<string, string | null> = {}, init: { method?: string; url?: string } = {}): Promise<Response> {
    return fetch(init.url ?? this.url, {
      method: init.method ?? 'POST',
      headers: this.headers(extra),
      ...(init.method === 'OPTIONS' ? {} : { body }),
      signal: AbortSignal.timeout(this.spec.requestTimeoutMs ?? 30_000),
    });
  }

  /** The JSON-RPC messages of a response body, JSON or SSE, read to its end. */
  async read(res: Response): Promise<HttpAnswer> {
    const contentType = res.headers.get('content-type') ?? '';
    const answer: HttpAnswer = { status: res.status, contentType, messages: [], invalid: [] };
    const take = (text: string) => {
      const invalid = invalidReply(text);
      if (invalid !== undefined) answer.invalid.push(`${invalid}: ${preview(text)}`);
      else {
        const parsed = JSON.parse(text) as Record<string, unknown> | Record<string, unknown>[];
        answer.messages.push(...(Array.isArray(parsed) ? parsed : [parsed]));
      }
    };
    // The whole body, then its events (the events a decoder and parser stream would give, without the
    // streams' cost on 10,000 answers; no answer is judged before its body has ended anyway).
    const text = await res.text();
    if (contentType.startsWith('text/event-stream')) {
      createParser({ onEvent: (event) => event.data !== '' && take(event.data) }).feed(text);
    } else if (text !== '') {
      take(text);
    }
    return answer;
  }

  async exchange(frames: readonly Frame[], probes: readonly HttpProbe[] = []): Promise<BatchReport> {
    const problems: string[] = [];
    let answered = 0;
    let errors = 0;
    const statuses: Record<number, number> = {};
    const work: (() => Promise<void>)[] = frames.map((frame) => async () => {
      const id = `${REPLY_ID_PREFIX}${++this.nextId}`;
      const text = withReplyId(frame, id);
      const answer = await this.read(await this.post(text)).catch((err: unknown) => `no answer: ${String(err)}`);
      if (typeof answer === 'string') return void problems.push(`[${frame.kind}] ${answer}: ${preview(text)}`);
      errors += answer.messages.filter((m) => 'error' in m).length;
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const problem = judgeFrame(frame, id, answer);
      if (problem) problems.push(`[${frame.kind}] ${problem}: ${preview(text)}`);
      else if (frame.expectsReply) answered++;
    });
    for (const probe of probes) {
      work.push(async () => {
        const problem = await this.probe(probe).catch((err: unknown) => `no answer: ${String(err)}`);
        if (problem) problems.push(`[http ${probe.kind}] ${problem}`);
      });
    }
    await pool(work, this.spec.concurrency);
    const ping = `fz:ping:${this.nextId}`;
    const pong = await this.read(await this.post(JSON.stringify({ jsonrpc: '2.0', id: ping, method: 'ping' }))).catch((err: unknown) => `${String(err)}`);
    if (typeof pong === 'string' || !pong.messages.some((m) => m.id === ping && 'result' in m)) problems.push(`ping after the batch: ${JSON.stringify(pong)}`);
    const extra = this.stdout.slice(this.stdout.indexOf('\n') + 1);
    if (extra !== '') problems.push(`stdout carried more than the listening line: ${preview(extra)}`);
    const child = this.child!;
    if (child.exitCode !== null || child.signalCode !== null) problems.push(`the server exited (code ${child.exitCode}, signal ${child.signalCode})`);
    if (problems.length > 0) throw new Error(this.report(problems.slice(0, 10).join('\n'), frames));
    const reusedIdRefused = this.reusedRefused;
    this.reusedRefused = 0;
    return { frames: frames.length, answered, errors, statuses, reusedIdRefused };
  }

  /** Sends one probe; returns what was wrong with the answer, or undefined. */
  private async probe(probe: HttpProbe): Promise<string | undefined> {
    const expected = expectationOf(probe);
    if (probe.kind === 'raw') return rawExchange(this.url, probe.bytes, this.spec.requestTimeoutMs ?? 30_000);
    if (probe.kind === 'reused-id') return this.reuseId(probe.id);
    const request = probeRequest(probe, this.url);
    const answer = await this.read(await this.post(request.body, request.headers, request));
    if (answer.status >= 500) return `HTTP ${answer.status}: ${JSON.stringify(answer.messages)}`;
    if (answer.invalid.length > 0) return `HTTP ${answer.status}, body is not JSON-RPC: ${answer.invalid.join('; ')}`;
    const rejected = answer.status >= 400 && answer.status < 500 && answer.messages.length === 1 && 'error' in answer.messages[0]!;
    switch (expected.kind) {
      case 'reject':
        return rejected && answer.status === expected.status ? undefined : `expected HTTP ${expected.status} with a JSON-RPC error, got ${answer.status} ${JSON.stringify(answer.messages)}`;
      case 'accepted':
        return answer.status === 202 ? undefined : `expected HTTP 202, got ${answer.status} ${JSON.stringify(answer.messages)}`;
      case 'answer-or-reject':
        return rejected || (answer.status === 200 && answer.messages.some((m) => 'result' in m || 'error' in m)) ? undefined : `expected an answer or a 4xx JSON-RPC error, got ${answer.status} ${JSON.stringify(answer.messages)}`;
    }
  }

  /**
   * A request, then (once its stream is open, so it has reached the server) another with the same id:
   * each gets exactly one answer on its own stream — for the second, a -32600 refusal while the first
   * still runs, a result once it is done (under load the slow request may be done by then, so either
   * counts). An id may also be in use by a concurrent frame: then the first is the one refused.
   */
  private async reuseId(id: string | number): Promise<string | undefined> {
    const slow = this.spec.slowRequest ?? { method: 'ping' };
    const first = await this.post(JSON.stringify({ jsonrpc: '2.0', id, ...slow }));
    const second = await this.read(await this.post(JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })));
    const answers = (a: HttpAnswer) => a.messages.filter((m) => m.id === id && !('method' in m));
    const firstAnswer = await this.read(first);
    if (firstAnswer.status !== 200 || answers(firstAnswer).length !== 1) return `id ${JSON.stringify(id)}: the first request got HTTP ${firstAnswer.status} ${JSON.stringify(firstAnswer.messages)}`;
    if (second.status !== 200 || answers(second).length !== 1) return `id ${JSON.stringify(id)}: the request reusing it got HTTP ${second.status} ${JSON.stringify(second.messages)}`;
    if ('error' in answers(second)[0]!) this.reusedRefused++;
    return undefined;
  }

  async close(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.home, { recursive: true, force: true });
  }

  private report(what: string, frames: readonly Frame[]): string {
    const sample = frames.slice(0, 10).map((f) => `  [${f.kind}] ${preview(f.text)}`).join('\n');
    return `${this.name}: ${what}\nbatch of ${frames.length} frames, first ones:\n${sample}\nserver stderr (tail):\n${this.stderrTail}`;
  }
}

/**
 * What is wrong with the answer to one frame, or undefined. A well-formed request gets exactly one
 * answer with its id (a second `initialize` may instead be refused with HTTP 400 -32600); anything
 * else gets 202, a 4xx with a JSON-RPC error, or (a request with an id of its own) a 200 stream.
 */
export function judgeFrame(frame: Frame, id: string, answer: HttpAnswer): string | undefined {
  const { status, messages } = answer;
  if (status >= 500) return `HTTP ${status} ${JSON.stringify(messages)}`;
  if (answer.invalid.length > 0) return `HTTP ${status}, body is not JSON-RPC: ${answer.invalid.join('; ')}`;
  if (status === 202) return frame.expectsReply ? 'a request got 202 and no answer' : messages.length === 0 ? undefined : 'a 202 with a body';
  if (status >= 400 && status < 500) {
    if (messages.length !== 1 || !('error' in messages[0]!)) return `HTTP ${status} without one JSON-RPC error: ${JSON.stringify(messages)}`;
    if (frame.expectsReply && (JSON.parse(frame.text) as { method?: unknown }).method !== 'initialize') return `a well-formed request refused with HTTP ${status}: ${JSON.stringify(messages)}`;
    return undefined;
  }
  if (status !== 200) return `unexpected HTTP ${status}`;
  if (!frame.expectsReply) return undefined;
  const replies = messages.filter((m) => m.id === id && !('method' in m));
  return replies.length === 1 ? undefined : `${replies.length} answers to ${id}: ${JSON.stringify(messages)}`;
}

/** Raw bytes on a fresh connection: a 4xx status line or a plain close is clean; nothing within the timeout is a hang. */
function rawExchange(url: string, bytes: Uint8Array, timeoutMs: number): Promise<string | undefined> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let received = '';
    const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.end(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`raw bytes: no answer and no close within ${timeoutMs} ms`);
    }, timeoutMs);
    socket.setEncoding('latin1').on('data', (d: string) => (received += d));
    socket.on('error', () => {}); // a reset is a clean refusal too
    socket.on('close', () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1];
      if (received === '' || (status !== undefined && status.startsWith('4'))) resolve(undefined);
      else resolve(`raw bytes answered with ${preview(received)}`);
    });
  });
}

async function pool(work: (() => Promise<void>)[], concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < work.length) await work[next++]!();
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
}

/** Starts the CLI, initializes a session; the home (config, token) is removed on close. */
export function startHttpTarget(spec: HttpTargetSpec): Promise<HttpTarget> {
  return started(new HttpTarget(spec));
}
