// createAgent: a ThreadManager wired as `switchboard exec` and `mcp-server` (and the library) use it (built-in tools, the MCP
// catalog when there is one, the OpenAI-compatible model client), with every piece replaceable.
import type { Config, ModelProviderConfig } from '../config/index.js';
import type { McpConnectionManager } from '../mcp/index.js';
import type { ThreadStore } from '../store/index.js';
import { nullLogger, VERSION, type Logger } from '../util/index.js';
import { tracingFetch, type Telemetry } from '../util/telemetry/index.js';
import { shellEnvironment } from './exec/shell-env.js';
import { mcpToolSourceFrom } from './mcp-manager-source.js';
import { createOpenAIModelClient } from './model/openai-model-client.js';
import type { ModelClient } from './model/model-types.js';
import { createPlatformSandbox } from './sandbox/platform.js';
import { ThreadManager } from './thread/thread-manager.js';
import { createApplyPatchTool } from './tools/apply-patch/apply-patch-tool.js';
import { createPlanTool } from './tools/plan.js';
import { createShellTool } from './tools/shell.js';
import type { Tool } from './tools/tool.js';

/** What {@link createAgent} builds the agent from; only `config` is required. */
export interface AgentOptions {
  /** Model, provider, approval and sandbox defaults for new threads; `config.home` holds their rollouts. */
  config: Config;
  /** The MCP servers whose tools the model may call (see `createConnectionManager`). Default: none. */
  mcp?: McpConnectionManager | null;
  /** The tools besides the MCP ones. Default: {@link builtinTools} (shell, apply_patch, update_plan). */
  tools?: readonly Tool[];
  /** Where the provider's `env_key` and the shell tool's environment come from. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Working directory of threads that name none. Default: `process.cwd()`. */
  cwd?: string;
  /** Where threads are kept. Default: rollout files under `config.home` (see `openStore` for PostgreSQL). */
  threads?: ThreadStore;
  /** Receives the agent's log lines. Default: discarded. */
  logger?: Logger;
  /** The model client of each thread. Default: the OpenAI-compatible client (Responses or Chat Completions, per provider). */
  createModelClient?: (provider: ModelProviderConfig) => ModelClient;
  /** Spans for turns, model requests (trace context passed to the provider) and tool calls. Default: none. */
  telemetry?: Telemetry;
}

/**
 * Codex's built-in tools: `shell` (run inside the platform sandbox: bubblewrap on Linux, Seatbelt on
 * macOS; its commands get `env` without variables whose names look like secrets), `apply_patch` and
 * `update_plan`.
 */
export function builtinTools(options: { env?: NodeJS.ProcessEnv } = {}): Tool[] {
  return [createShellTool({ sandbox: createPlatformSandbox(), env: shellEnvironment(options.env ?? process.env) }), createApplyPatchTool(), createPlanTool()];
}

/**
 * An agent: a {@link ThreadManager} whose threads offer the model the built-in tools and the MCP
 * catalog, and talk to the provider `config` selects. See `Thread` for driving a conversation.
 *
 * @example
 * ```ts
 * const { config } = await loadConfig({ home: resolveHome() });
 * const agent = createAgent({ config });
 * const thread = await agent.start({ approvalPolicy: 'never' });
 * ```
 */
export function createAgent(options: AgentOptions): ThreadManager {
  const env = options.env ?? process.env;
  const logger = options.logger ?? nullLogger;
  return new ThreadManager({
    home: options.config.home,
    ...(options.threads ? { threads: options.threads } : {}),
    config: options.config,
    cwd: options.cwd ?? process.cwd(),
    tools: options.tools ?? builtinTools({ env }),
    mcp: options.mcp ? mcpToolSourceFrom(options.mcp) : null,
    logger,
    version: VERSION,
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    createModelClient: options.createModelClient ?? ((provider) => createOpenAIModelClient(provider, { env, logger, ...(options.telemetry?.tracing ? { fetch: tracingFetch<typeof fetch>(undefined, options.telemetry) } : {}) })),
  });
}
