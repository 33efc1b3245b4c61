// SDK v2 and SDK v1 clients for `switchboard mcp-server`, behind one small interface so every
// scenario runs against both SDK generations and both transports (stdio and Streamable HTTP).
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { BIN, type ServerHome } from './mcp-server-harness.js';

/** `v2-2026`: the SDK v2 client speaking the 2026-07-28 revision (probed with server/discover). */
export type Sdk = 'v1' | 'v2' | 'v2-2026';
export type Wire = { kind: 'stdio'; sh: ServerHome } | { kind: 'http'; url: string; token: string | null };

export interface CodexEventNote {
  _meta: { requestId: string | number; threadId: string };
  id: string;
  msg: { type: string } & Record<string, unknown>;
}

export interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: { threadId: string; content: string };
  isError?: boolean;
}

export type ElicitAnswer = (params: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface TestClient {
  sdk: Sdk;
  /** codex/event notifications in arrival order. */
  events: CodexEventNote[];
  /** Elicitation params as the client's handler saw them. */
  elicitations: Record<string, unknown>[];
  answer: ElicitAnswer;
  callTool(name: string, args: Record<string, unknown>, opts?: { signal?: AbortSignal; onprogress?: (p: { progress: number; message?: string }) => void }): Promise<ToolResult>;
  listTools(): Promise<{ name: string }[]>;
  /** The era the connection speaks (SDK v2 clients). */
  era?(): string | undefined;
  close(): Promise<void>;
}

const CALL_TIMEOUT_MS = 120_000;

export async function connectClient(sdk: Sdk, wire: Wire, capabilities: Record<string, unknown> = { elicitation: {} }): Promise<TestClient> {
  const events: CodexEventNote[] = [];
  const elicitations: Record<string, unknown>[] = [];
  const state: TestClient = {
    sdk,
    events,
    elicitations,
    answer: async () => ({ action: 'decline' }),
    callTool: async () => {
      throw new Error('not connected');
    },
    listTools: async () => [],
    close: async () => {},
  };
  const onNotification = async (n: { method: string; params?: unknown }) => {
    if (n.method === 'codex/event') events.push(n.params as CodexEventNote);
  };
  const onElicit = async (params: Record<string, unknown>) => {
    elicitations.push(params);
    return state.answer(params);
  };
  const headers: Record<string, string> = wire.kind === 'http' && wire.token ? { Authorization: `Bearer ${wire.token}` } : {};
  const stdioParams = wire.kind === 'stdio' ? { command: process.execPath, args: [BIN, 'mcp-server'], env: wire.sh.env as Record<string, string>, cwd: wire.sh.work, stderr: 'pipe' as const } : null;

  if (sdk === 'v2' || sdk === 'v2-2026') {
    const negotiation = sdk === 'v2-2026' ? { versionNegotiation: { mode: 'auto' as const } } : {};
    const client = new ClientV2({ name: 'sdk-v2-test', version: '2.0.0' }, { capabilities, ...negotiation });
    client.fallbackNotificationHandler = onNotification;
    if ('elicitation' in capabilities) client.setRequestHandler('elicitation/create', async (req) => (await onElicit(req.params as Record<string, unknown>)) as never);
    await client.connect(stdioParams ? new StdioV2(stdioParams) : new HttpV2(new URL((wire as { url: string }).url), { requestInit: { headers } }));
    state.callTool = async (name, args, opts = {}) =>
      (await client.callTool({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS, ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.onprogress ? { onprogress: opts.onprogress, resetTimeoutOnProgress: true } : {}) })) as ToolResult;
    state.listTools = async () => (await client.listTools()).tools;
    state.close = () => client.close();
    state.era = () => client.getProtocolEra();
    return state;
  }
  const client = new ClientV1({ name: 'sdk-v1-test', version: '1.0.0' }, { capabilities });
  client.fallbackNotificationHandler = onNotification;
  if ('elicitation' in capabilities) client.setRequestHandler(ElicitRequestSchema, async (req) => (await onElicit(req.params as Record<string, unknown>)) as never);
  await client.connect(stdioParams ? new StdioV1(stdioParams) : new HttpV1(new URL((wire as { url: string }).url), { requestInit: { headers } }));
  state.callTool = async (name, args, opts = {}) =>
    (await client.callTool({ name, arguments: args }, undefined, {
      timeout: CALL_TIMEOUT_MS,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onprogress ? { onprogress: opts.onprogress, resetTimeoutOnProgress: true } : {}),
    })) as ToolResult;
  state.listTools = async () => (await client.listTools()).tools;
  state.close = () => client.close();
  return state;
}
