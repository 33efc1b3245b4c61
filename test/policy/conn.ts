// One client of a served surface as the policy probes drive it, whatever its revision and transport:
// a 2025-11-25 session (the SDK v2 client, or a raw session where the HTTP status matters), a raw
// 2026-07-28 request per call (test/support/raw-2026.ts; over stdio, raw lines with its envelope).
// Every answer comes back the same way: the HTTP status, the result or the JSON-RPC error.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { z } from 'zod';
import { BIN } from '../support/mcp-server-harness.js';
import { ENVELOPE_2026, onStdioMessages, post2026 } from '../support/raw-2026.js';
import { RawHttpSession } from '../support/raw-http-session.js';
import type { Era } from './policy-table.js';

export interface Answer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  retryAfter?: string | null;
}

export interface SendOptions {
  /** A task-augmented call: `params.task` in 2025, the tasks extension declared in 2026-07-28. */
  task?: boolean;
  /** The W3C trace context the request carries (`_meta.traceparent`, and the header over HTTP). */
  traceparent?: string;
}

export interface Note {
  method: string;
  params?: Record<string, unknown>;
}

export interface Conn {
  readonly era: Era;
  /** Requests sent so far (each one the HTTP door counts), initialize included. */
  readonly sent: number;
  /** The 2025 session's id over HTTP. */
  readonly sessionId: string | undefined;
  /** Notifications received outside any request (a 2025 session's own stream). */
  readonly notes: Note[];
  /** The instructions its initialize answered with (a 2025 session of the SDK client). */
  readonly instructions?: string | undefined;
  send(method: string, params?: Record<string, unknown>, options?: SendOptions): Promise<Answer>;
  /** A client notification; the HTTP status of its POST (202 when taken). */
  notify(method: string, params?: Record<string, unknown>): Promise<number>;
  close(): Promise<void>;
}

const Loose = z.looseObject({});
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const TASK_TTL = { ttl: 60_000 };

/** The name a 2026-07-28 request carries in its Mcp-Name header: the tool, prompt, resource or task it names. */
function nameOf(params: Record<string, unknown>): string {
  const ref = params.ref as { name?: string; uri?: string } | undefined;
  return String(params.name ?? params.uri ?? params.taskId ?? ref?.name ?? ref?.uri ?? '');
}

function withMeta(params: Record<string, unknown>, meta: Record<string, unknown>): Record<string, unknown> {
  return Object.keys(meta).length === 0 ? params : { ...params, _meta: { ...(params._meta as object | undefined), ...meta } };
}

/** A 2025-11-25 session of the SDK v2 client (it answers elicitations with `accept`). */
export async function sdkSession(target: { url: string; token?: string } | { args: string[]; env: NodeJS.ProcessEnv; cwd: string }): Promise<Conn> {
  const notes: Note[] = [];
  const client = new Client({ name: 'policy-matrix', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.fallbackNotificationHandler = async (n) => void notes.push({ method: n.method, params: n.params as Record<string, unknown> | undefined });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { answer: 'yes' } }));
  const transport =
    'url' in target
      ? new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: target.token ? { authorization: `Bearer ${target.token}` } : {} } })
      : new StdioClientTransport({ command: process.execPath, args: [BIN, ...target.args], env: target.env as Record<string, string>, cwd: target.cwd, stderr: 'pipe' });
  await client.connect(transport);
  let sent = 1;
  return {
    era: 'legacy',
    get sent() {
      return sent;
    },
    sessionId: 'url' in target ? (transport as StreamableHTTPClientTransport).sessionId : undefined,
    notes,
    instructions: client.getInstructions(),
    async send(method, params = {}, options = {}) {
      sent += 1;
      const full = withMeta({ ...params, ...(options.task ? { task: TASK_TTL } : {}) }, options.traceparent ? { traceparent: options.traceparent } : {});
      try {
        return { status: 200, result: (await client.request({ method, params: full } as never, Loose, { timeout: 60_000 })) as Record<string, unknown> };
      } catch (err) {
        if (err instanceof ProtocolError) return { status: 200, error: { code: err.code, message: err.message, data: err.data } };
        throw err;
      }
    },
    async notify(method, params = {}) {
      await client.notification({ method, params } as never);
      return 202;
    },
    close: () => client.close().catch(() => {}),
  };
}

/** A raw 2025-11-25 session over HTTP: every answer with its status, for the door's refusals. */
export async function rawSession(url: string, token: string): Promise<Conn & { raw: RawHttpSession }> {
  const raw = new RawHttpSession(url, token);
  await raw.initialize();
  let sent = 1;
  let id = 0;
  return {
    era: 'legacy',
    raw,
    get sent() {
      return sent;
    },
    get sessionId() {
      return raw.sessionId ?? undefined;
    },
    notes: [],
    async send(method, params = {}, options = {}) {
      sent += 1;
      const full = withMeta({ ...params, ...(options.task ? { task: TASK_TTL } : {}) }, options.traceparent ? { traceparent: options.traceparent } : {});
      const rid = `r${++id}`;
      const res = await raw.post({ jsonrpc: '2.0', id: rid, method, params: full }, options.traceparent ? { headers: { traceparent: options.traceparent } } : {});
      if (res.status !== 200) return { status: res.status, retryAfter: res.headers.get('retry-after'), ...(await errorBody(res)) };
      return { status: 200, ...((await raw.responseOn(res, rid)) as Omit<Answer, 'status'>) };
    },
    notify: (method, params = {}) => raw.notify(method, params),
    close: () => raw.close(),
  };
}

async function errorBody(res: Response): Promise<Pick<Answer, 'error'>> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error?: Answer['error'] | string; error_description?: string };
    if (typeof body.error === 'object') return { error: body.error };
    return { error: { code: res.status, message: `${body.error ?? ''} ${body.error_description ?? ''}`.trim() } };
  } catch {
    return { error: { code: res.status, message: text } };
  }
}

/** 2026-07-28 requests over HTTP, each on its own, as `token`'s caller. */
export function modernHttp(url: string, token: string): Conn {
  let sent = 0;
  let id = 0;
  return {
    era: 'modern',
    get sent() {
      return sent;
    },
    sessionId: undefined,
    notes: [],
    async send(method, params = {}, options = {}) {
      sent += 1;
      const meta = {
        ...(options.task ? { [CAPABILITIES_KEY]: { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } } } : {}),
        ...(options.traceparent ? { traceparent: options.traceparent } : {}),
      };
      const { response, answer } = await post2026<Omit<Answer, 'status'>>(url, { id: ++id, method, params, name: nameOf(params), token, meta, ...(options.traceparent ? { headers: { traceparent: options.traceparent } } : {}) }).catch(
        async (err: unknown) => ({ response: undefined, answer: { error: { code: -1, message: String(err) } } }),
      );
      if (response && response.status !== 200) return { status: response.status, retryAfter: response.headers.get('retry-after'), ...answer };
      return { status: response?.status ?? 0, ...answer };
    },
    async notify(method, params = {}) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
        body: JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, _meta: ENVELOPE_2026 } }),
      });
      await res.text();
      return res.status;
    },
    close: async () => {},
  };
}

/** A stdio process spoken to in raw 2026-07-28 lines (its first request decides the revision). */
export function modernStdio(args: string[], env: NodeJS.ProcessEnv, cwd: string): Conn {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [BIN, ...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting = new Map<number, (answer: Answer) => void>();
  onStdioMessages(child.stdout, (message) => {
    if (typeof message.id === 'number') waiting.get(message.id)?.({ ...(message as unknown as Answer), status: 200 });
  });
  child.stderr.resume();
  let id = 0;
  const write = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return {
    era: 'modern',
    get sent() {
      return id;
    },
    sessionId: undefined,
    notes: [],
    send(method, params = {}, options = {}) {
      const caps = options.task ? { [CAPABILITIES_KEY]: { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } } } : {};
      const meta = { ...ENVELOPE_2026, ...caps, ...(options.traceparent ? { traceparent: options.traceparent } : {}) };
      const mine = ++id;
      return new Promise((resolve) => {
        waiting.set(mine, resolve);
        write({ id: mine, method, params: { ...params, _meta: meta } });
      });
    },
    async notify(method, params = {}) {
      write({ method, params: { ...params, _meta: ENVELOPE_2026 } });
      return 202;
    },
    async close() {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    },
  };
}
