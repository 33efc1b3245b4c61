// Starts, finds, resumes and shuts down threads. Each thread gets its own model client, rollout (in
// the thread store) and turn loop; threads share the built-in tools and the MCP tool source, and run concurrently.
import type { Config, ModelProviderConfig } from '../../config/index.js';
import { nullLogger, SwitchboardError, type Logger } from '../../util/index.js';
import { NOOP_TELEMETRY, type Telemetry } from '../../util/telemetry/index.js';
import type { McpToolSource } from '../mcp-tool-source.js';
import type { ModelClient, ResponseItem } from '../model/model-types.js';
import { FileThreadStore, type ThreadStore } from '../../store/index.js';
import { loadStoredRollout } from '../rollout/rollout-reader.js';
import { RolloutRecorder } from '../rollout/rollout-recorder.js';
import type { SessionMeta } from '../rollout/rollout-schema.js';
import type { Tool } from '../tools/tool.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { newThreadId } from './ids.js';
import { Thread } from './thread.js';
import { resolveThreadSettings, type ThreadOverrides, type ThreadSettings } from './thread-settings.js';

export const ORIGINATOR = 'switchboard';

/** What a ThreadManager builds its threads from. */
export interface ThreadManagerDeps {
  /** $SWITCHBOARD_HOME: rollouts go under `<home>/sessions` unless `threads` names another store. */
  home: string;
  /** Where rollouts are kept (default: files under `<home>/sessions`); a shared store lets replicas continue each other's threads. */
  threads?: ThreadStore;
  /** Validated config: providers and defaults for new and resumed threads. */
  config: Config;
  createModelClient(provider: ModelProviderConfig): ModelClient;
  /** The built-in tools (shell, apply_patch, update_plan, ...). */
  tools?: readonly Tool[];
  /** The MCP catalog; its tools and the resource tools are offered when it has servers. */
  mcp?: McpToolSource | null;
  logger?: Logger;
  /** Spans for turns, model requests and tool calls (and their metrics). Default: none. */
  telemetry?: Telemetry;
  /** Working directory for threads that name none. */
  cwd?: string;
  version?: string;
}

/** Options of `ThreadManager.start` and `ThreadManager.resume`. */
export interface StartOptions {
  signal?: AbortSignal;
  /** A per-thread config (e.g. with a caller's `-c` style overrides applied); default deps.config. */
  config?: Config;
}

/**
 * Starts, finds, resumes and shuts down {@link Thread}s. Threads run concurrently, each with its own
 * model client and rollout file; they share the tools and the MCP catalog. `createAgent` builds one
 * the way the CLI does.
 */
export class ThreadManager {
  private readonly threads = new Map<string, Thread>();
  /** Resumes in progress, so two concurrent resumes of one id share one thread. */
  private readonly resuming = new Map<string, Promise<Thread>>();
  private readonly registry: ToolRegistry;
  private readonly logger: Logger;
  private readonly store: ThreadStore;

  constructor(private readonly deps: ThreadManagerDeps) {
    this.logger = deps.logger ?? nullLogger;
    this.store = deps.threads ?? new FileThreadStore(deps.home);
    this.registry = new ToolRegistry(deps.tools ?? [], deps.mcp ?? null, this.logger);
  }

  /** Start a new thread; its first event is session_configured. */
  async start(overrides: ThreadOverrides = {}, options: StartOptions = {}): Promise<Thread> {
    options.signal?.throwIfAborted();
    const settings = resolveThreadSettings(options.config ?? this.deps.config, overrides, this.deps.cwd ?? process.cwd());
    const id = newThreadId();
    const meta: SessionMeta = {
      id,
      timestamp: new Date().toISOString(),
      cwd: settings.cwd,
      originator: ORIGINATOR,
      cli_version: this.deps.version ?? '0.0.0',
      model: settings.model,
      model_provider: settings.provider.id,
      approval_policy: settings.approvalPolicy,
      sandbox_policy: settings.sandboxPolicy,
      base_instructions: settings.baseInstructions,
      developer_instructions: settings.developerInstructions,
    };
    const thread = this.open(id, settings, [], (onWriteError) => RolloutRecorder.create(this.store, meta, { logger: this.logger, onWriteError }));
    return this.configure(await thread, [], 0);
  }

  /** The live thread with this id, if any. */
  find(threadId: string): Thread | undefined {
    return this.threads.get(threadId);
  }

  list(): Thread[] {
    return [...this.threads.values()];
  }

  /**
   * Continue a thread: the live one if it is still running in this process, else rebuilt from its
   * rollout in the thread store (settings as it last used them, then `overrides`). Damaged lines become warnings.
   */
  async resume(threadId: string, overrides: ThreadOverrides = {}, options: StartOptions = {}): Promise<Thread> {
    options.signal?.throwIfAborted();
    const live = this.threads.get(threadId);
    if (live) return live;
    const pending = this.resuming.get(threadId);
    if (pending) return pending;
    const resumed = this.load(threadId, overrides, options).finally(() => this.resuming.delete(threadId));
    this.resuming.set(threadId, resumed);
    return resumed;
  }

  private async load(threadId: string, overrides: ThreadOverrides, options: StartOptions): Promise<Thread> {
    const loaded = await loadStoredRollout(this.store, threadId);
    for (const w of loaded.warnings) this.logger.warn(w);
    const settings = resolveThreadSettings(options.config ?? this.deps.config, overrides, this.deps.cwd ?? process.cwd(), {
      meta: loaded.meta,
      lastTurnContext: loaded.lastTurnContext,
    });
    const thread = await this.open(
      threadId,
      settings,
      loaded.items,
      async (onWriteError) => new RolloutRecorder(await loaded.stored.reopen(loaded.validBytes), { logger: this.logger, onWriteError }),
    );
    const warnings = [...loaded.warnings];
    if (loaded.unfinishedTurn !== null) {
      // The process running that turn died (a crash, a killed replica): say so in the rollout, once.
      const turnId = loaded.unfinishedTurn;
      thread.recordAbortedTurn(turnId);
      warnings.push(`turn ${turnId} did not finish (the process running it stopped); it is recorded as aborted`);
    }
    return this.configure(thread, warnings, loaded.items.length);
  }

  private async open(
    id: string,
    settings: ThreadSettings,
    history: ResponseItem[],
    recorder: (onWriteError: (message: string) => void) => Promise<RolloutRecorder>,
  ): Promise<Thread> {
    if (this.threads.has(id)) throw new SwitchboardError('thread_exists', `thread ${id} is already open`);
    let thread: Thread | null = null;
    const rec = await recorder((message) => thread?.warn(message));
    thread = new Thread({
      id,
      settings,
      history,
      model: this.deps.createModelClient(settings.provider),
      registry: this.registry,
      recorder: rec,
      logger: this.logger.child({ threadId: id }),
      telemetry: this.deps.telemetry ?? NOOP_TELEMETRY,
      onClosed: () => this.threads.delete(id),
    });
    this.threads.set(id, thread);
    return thread;
  }

  private configure(thread: Thread, warnings: string[], historyCount: number): Thread {
    const s = thread.settings;
    thread.configure(
      {
        type: 'session_configured',
        session_id: thread.id,
        model: s.model,
        model_provider_id: s.provider.id,
        approval_policy: s.approvalPolicy,
        sandbox_policy: s.sandboxPolicy,
        cwd: s.cwd,
        reasoning_effort: null,
        history_log_id: 0,
        history_entry_count: historyCount,
        rollout_path: thread.rolloutPath,
      },
      warnings,
    );
    return thread;
  }

  /** Shut every thread down (running turns end with turn_aborted). */
  async shutdown(_options: { signal?: AbortSignal } = {}): Promise<void> {
    await Promise.all([...this.threads.values()].map((t) => t.shutdown()));
  }
}
