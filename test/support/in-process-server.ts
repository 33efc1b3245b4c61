// `switchboard mcp-server` in-process: the same agent composition as the CLI (ThreadManager with the
// built-in tools, server config with per-call overrides), served over an in-memory transport pair or
// the HTTP host, so tests can reach into the agent and run fast.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { applyOverrides, buildConfig, type ConfigOverride } from '../../src/config/index.js';
import {
  createApplyPatchTool,
  createPlanTool,
  createShellTool,
  NoSandbox,
  OpenAIModelClient,
  ThreadManager,
  type McpToolSource,
  type Tool,
} from '../../src/core/index.js';
import { codexProduct, createCodexAgent, type CodexAgent, type CodexServerOptions } from '../../src/agent-server/index.js';
import { startServing, type Connection } from '../../src/mcp-host/index.js';
import { nullLogger } from '../../src/util/index.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import type { CodexEventNote } from './mcp-test-clients.js';
import { tempDir, removeTree } from './temp.js';

export interface InProcess {
  home: string;
  work: string;
  agent: CodexAgent;
  options: CodexServerOptions;
  cleanup(): Promise<void>;
}

export const SERVER_OPTIONS: CodexServerOptions = {
  name: 'switchboard-mcp-server',
  title: 'Switchboard',
  version: '0.0.0',
  userAgent: 'switchboard/0.0.0 (test)',
  codexEvents: true,
  heartbeatMs: 0,
};

export async function inProcessAgent(
  model: FakeModelServer,
  opts: { raw?: Record<string, unknown>; overrides?: ConfigOverride[]; tools?: Tool[]; mcp?: McpToolSource; maxTurns?: number; threadIdleMs?: number; options?: Partial<CodexServerOptions> } = {},
): Promise<InProcess> {
  const home = await tempDir('sb-mcpserver-inproc-');
  const work = path.join(home, 'work');
  await mkdir(work);
  const fileRaw: Record<string, unknown> = {
    model: 'mock-model',
    model_provider: 'mock',
    approval_policy: 'untrusted',
    sandbox_mode: 'danger-full-access',
    model_providers: { mock: { name: 'Mock', base_url: model.url, env_key: 'MOCK_KEY', request_max_retries: 0, stream_max_retries: 0 } },
    ...(opts.raw ?? {}),
  };
  const raw = applyOverrides(fileRaw, opts.overrides ?? []);
  const { config } = buildConfig(raw, { home, file: path.join(home, 'config.toml') });
  const manager = new ThreadManager({
    home,
    config,
    cwd: work,
    tools: opts.tools ?? [createShellTool({ sandbox: new NoSandbox(process.platform) }), createApplyPatchTool(), createPlanTool()],
    mcp: opts.mcp ?? null,
    createModelClient: (provider) => new OpenAIModelClient(provider, { env: { MOCK_KEY: 'sk-mock' }, retryBaseDelayMs: 5 }),
  });
  const agent = createCodexAgent({ manager, config: { base: config, raw }, cwd: work, maxTurns: opts.maxTurns, threadIdleMs: opts.threadIdleMs });
  return {
    home,
    work,
    agent,
    options: { ...SERVER_OPTIONS, codexEvents: config.mcp_server.codex_events, ...(opts.options ?? {}) },
    async cleanup() {
      agent.idle.stop();
      await manager.shutdown();
      await removeTree(home);
    },
  };
}

/** An SDK v2 client connected to the agent product through an in-memory transport pair (one connection of the host). */
export async function connectInMemory(
  ip: InProcess,
  capabilities: Record<string, unknown> = { elicitation: {} },
): Promise<{ client: Client; server: Connection; events: CodexEventNote[]; notifications: { method: string; params?: unknown }[]; close(): Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // The agent's threads outlive a connection: the in-process agent's cleanup shuts them down.
  const server = startServing(codexProduct(ip.agent, ip.options, nullLogger), { logger: nullLogger }).connect(serverSide);
  const client = new Client({ name: 'in-process', version: '0' }, { capabilities });
  const events: CodexEventNote[] = [];
  const notifications: { method: string; params?: unknown }[] = [];
  client.fallbackNotificationHandler = async (n) => {
    notifications.push(n);
    if (n.method === 'codex/event') events.push(n.params as unknown as CodexEventNote);
  };
  await client.connect(clientSide);
  return {
    client,
    server,
    events,
    notifications,
    async close() {
      await client.close();
      await server.close();
    },
  };
}
