// A thread: one conversation, its settings, and its turns. Front-ends talk to it only through
// submit(op) and events(). One turn runs at a time; user input that arrives while a turn runs is
// queued and becomes the next turn (in order), so nothing a front-end sends is dropped.
import { randomUUID } from 'node:crypto';
import { OpSchema, type Event, type EventMsg, type EventMsgOf, type InputItem, type Op } from '../../protocol/index.js';
import { assertNever, errorMessage, SwitchboardError, type Logger } from '../../util/index.js';
import type { Telemetry } from '../../util/telemetry/index.js';
import type { McpCaller, McpElicitation, McpElicitationResult } from '../mcp-tool-source.js';
import { EMPTY_USAGE, type ModelClient, type ResponseItem } from '../model/model-types.js';
import { isPersistedEvent } from '../rollout/persist-policy.js';
import type { RolloutRecorder } from '../rollout/rollout-recorder.js';
import type { ToolContext } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { ApprovalBroker } from './approval-broker.js';
import { EventHub } from './event-hub.js';
import type { ThreadSettings } from './thread-settings.js';
import { runTurn, type UsageTotals } from './turn-runner.js';

/** A thread's lifecycle: idle, running a turn, shutting down, or shut down. */
export type ThreadState =
  | { kind: 'idle' }
  | { kind: 'running'; turnId: string; controller: AbortController; done: Promise<void> }
  | { kind: 'closing'; done: Promise<void> }
  | { kind: 'closed' };

export interface ThreadDeps {
  id: string;
  settings: ThreadSettings;
  history: ResponseItem[];
  model: ModelClient;
  registry: ToolRegistry;
  recorder: RolloutRecorder;
  logger: Logger;
  telemetry: Telemetry;
  /** Called once the thread has shut down (the manager forgets it). */
  onClosed?: () => void;
}

/**
 * One conversation with the agent: its settings, its history and its turns. Get one from
 * `ThreadManager.start` or `ThreadManager.resume`; a front-end talks to it only through
 * {@link Thread.submit} (an `Op` in) and {@link Thread.events} (`Event`s out).
 *
 * - `submit(op, {id?})` resolves with the submission id; all events caused by a `user_input` carry it
 *   as `id` and as `turn_id`. Ops: `user_input {items}`, `interrupt`, `exec_approval {id, turn_id?,
 *   decision}`, `patch_approval {id, decision}` (decisions `approved`, `approved_for_session`,
 *   `denied`, `abort`), `resolve_elicitation {server_name, request_id, action, content?}`, `shutdown`.
 * - One turn runs at a time per thread. A `user_input` submitted while a turn runs is **queued** and
 *   becomes the next turn, in order (front-ends that want Codex's "busy" refusal check for themselves).
 *   `interrupt` aborts the running turn (the model stream, running tool processes and MCP calls), and
 *   it ends with `turn_aborted`.
 * - `events()` is an async iterable of `Event {id, msg}`; each call subscribes from that moment, and
 *   events emitted while nobody listens (such as the initial `session_configured`, id `""`) are held
 *   for the next subscriber. It ends after `shutdown_complete`.
 * - A turn is `task_started`, `user_message`, then model output (`agent_message_delta`,
 *   `agent_message`, `agent_reasoning_delta`, `agent_reasoning`, `token_count`), tool events
 *   (`exec_command_*`, `patch_apply_*`, `mcp_tool_call_begin/progress/end`, `plan_update`, approval and
 *   elicitation requests), `stream_error` on retries, and exactly one closing event: `task_complete
 *   {last_agent_message}` (after an `error` event when it failed) or `turn_aborted`.
 * - Tool calls of one model response run one after another, in the model's order (approvals are asked
 *   one at a time); `approved_for_session` is remembered for the thread. Under approval policy `never`
 *   a tool's approval request is denied without asking.
 * - MCP tools come from an `McpToolSource` (the connection manager): its catalog under model-visible
 *   names, plus `list_mcp_resources`, `list_mcp_resource_templates` and `read_mcp_resource` whenever a
 *   server is configured. Results reach the model as Codex converts them (`structuredContent` as JSON
 *   text, images as `input_image`, otherwise the content blocks as JSON). With tool search on
 *   (`tool_search` in config.toml), MCP tools wait behind a `tool_search` tool, and the ones it
 *   returned are offered from then on in the thread (read back from its conversation).
 * - Every thread is recorded in a rollout file under `<home>/sessions` (see {@link Thread.rolloutPath}),
 *   from which `ThreadManager.resume` rebuilds it, in this process or a later one.
 *
 * @example One turn, approving what the agent asks for (subscribe before submitting):
 * ```ts
 * import { createAgent } from 'switchboard/agent';
 *
 * const agent = createAgent({ config });
 * const thread = await agent.start({ approvalPolicy: 'on-request', sandboxMode: 'workspace-write' });
 * const events = thread.events();
 * const turnId = await thread.submit({ type: 'user_input', items: [{ type: 'text', text: 'Make the tests pass' }] });
 * for await (const { msg } of events) {
 *   if (msg.type === 'agent_message_delta') process.stdout.write(msg.delta);
 *   if (msg.type === 'exec_approval_request') {
 *     await thread.submit({ type: 'exec_approval', id: msg.approval_id ?? msg.call_id, turn_id: msg.turn_id, decision: 'approved' });
 *   }
 *   if (msg.type === 'apply_patch_approval_request') await thread.submit({ type: 'patch_approval', id: msg.call_id, decision: 'approved' });
 *   if ((msg.type === 'task_complete' || msg.type === 'turn_aborted') && msg.turn_id === turnId) break;
 * }
 * await agent.shutdown();
 * ```
 */
export class Thread {
  readonly id: string;
  readonly settings: ThreadSettings;
  private state: ThreadState = { kind: 'idle' };
  private readonly queue: { id: string; items: InputItem[]; caller: McpCaller | undefined }[] = [];
  private readonly hub = new EventHub();
  private readonly broker = new ApprovalBroker();
  private readonly warned = new Set<string>();
  private readonly usage: UsageTotals = { total: EMPTY_USAGE };
  private readonly history: ResponseItem[];
  private sessionConfiguredMsg: EventMsgOf<'session_configured'> | null = null;

  constructor(private readonly deps: ThreadDeps) {
    this.id = deps.id;
    this.settings = deps.settings;
    this.history = deps.history;
  }

  get rolloutPath(): string {
    return this.deps.recorder.path;
  }

  get status(): ThreadState['kind'] {
    return this.state.kind;
  }

  /** The session_configured event this thread started with. */
  get sessionConfigured(): EventMsgOf<'session_configured'> {
    if (!this.sessionConfiguredMsg) throw new SwitchboardError('internal', 'thread not configured yet');
    return this.sessionConfiguredMsg;
  }

  /** A copy of the conversation so far. */
  conversation(): ResponseItem[] {
    return [...this.history];
  }

  /** Emitted once by the manager, with id "" like Codex's initial event. */
  configure(msg: EventMsgOf<'session_configured'>, warnings: readonly string[]): void {
    this.sessionConfiguredMsg = msg;
    this.hub.emit({ id: '', msg });
    for (const w of warnings) this.emit('', { type: 'warning', message: w });
  }

  /** Record (not emit) that a turn of an earlier process ended without its closing event. */
  recordAbortedTurn(turnId: string): void {
    this.deps.recorder.recordEvent({ type: 'turn_aborted', turn_id: turnId, reason: 'interrupted' });
  }

  /** A warning outside any turn (used by the manager, e.g. when the rollout cannot be written). */
  warn(message: string): void {
    this.emit('', { type: 'warning', message });
  }

  /** Every event from now on (plus any emitted while nobody listened); ends after shutdown_complete. */
  events(): AsyncIterable<Event> {
    return this.hub.subscribe();
  }

  private emit(id: string, msg: EventMsg): void {
    this.hub.emit({ id, msg });
    if (isPersistedEvent(msg)) this.deps.recorder.recordEvent(msg);
  }

  /**
   * Submit an operation; resolves with its submission id (the `id` of the events it causes; for
   * user input also the turn id). Pass `id` to choose it (the MCP server uses the request id). For
   * user input, `caller` is whom that turn's MCP requests are made for (a served caller; absent: the
   * operator): each turn acts for the caller that submitted it, never for an earlier one.
   */
  async submit(op: Op, options: { id?: string; signal?: AbortSignal; caller?: McpCaller } = {}): Promise<string> {
    const parsed = OpSchema.safeParse(op);
    if (!parsed.success) throw new SwitchboardError('invalid_op', `invalid op: ${parsed.error.message}`);
    if (this.state.kind === 'closed' || this.state.kind === 'closing') {
      throw new SwitchboardError('thread_closed', `thread ${this.id} has been shut down; resume it to continue`);
    }
    const id = options.id ?? randomUUID();
    const value = parsed.data;
    switch (value.type) {
      case 'user_input':
        this.queue.push({ id, items: value.items, caller: options.caller });
        this.pump();
        break;
      case 'interrupt':
        if (this.state.kind === 'running') this.state.controller.abort(new SwitchboardError('turn_aborted', 'interrupted by the user'));
        break;
      case 'exec_approval':
        if (!this.broker.resolveApproval('exec', value.id, value.decision, value.turn_id)) {
          this.deps.logger.warn('exec approval for no pending request ignored', { id: value.id });
        }
        break;
      case 'patch_approval':
        if (!this.broker.resolveApproval('patch', value.id, value.decision)) {
          this.deps.logger.warn('patch approval for no pending request ignored', { id: value.id });
        }
        break;
      case 'resolve_elicitation':
        if (!this.broker.resolveElicitation(value.server_name, value.request_id, { action: value.action, content: value.content })) {
          this.deps.logger.warn('elicitation answer for no pending request ignored', { server: value.server_name, id: value.request_id });
        }
        break;
      case 'shutdown':
        void this.shutdown();
        break;
      default:
        assertNever(value, 'op');
    }
    return id;
  }

  private pump(): void {
    if (this.state.kind !== 'idle') return;
    const next = this.queue.shift();
    if (!next) return;
    const controller = new AbortController();
    const done = this.runTurn(next, controller).finally(() => {
      if (this.state.kind === 'running' && this.state.turnId === next.id) {
        this.state = { kind: 'idle' };
        this.pump();
      }
    });
    this.state = { kind: 'running', turnId: next.id, controller, done };
  }

  private async runTurn({ id: turnId, items, caller }: { id: string; items: InputItem[]; caller: McpCaller | undefined }, controller: AbortController): Promise<void> {
    const emit = (msg: EventMsg) => this.emit(turnId, msg);
    await runTurn(
      {
        threadId: this.id,
        turnId,
        settings: this.settings,
        history: this.history,
        model: this.deps.model,
        registry: this.deps.registry,
        broker: this.broker,
        recorder: this.deps.recorder,
        usage: this.usage,
        emit,
        warnOnce: (message) => {
          if (this.warned.has(message)) return;
          this.warned.add(message);
          emit({ type: 'warning', message });
        },
        elicit: (e, ctx) => this.elicit(e, ctx),
        ...(caller ? { caller } : {}),
        controller,
        logger: this.deps.logger.child({ turnId }),
        telemetry: this.deps.telemetry,
      },
      items,
    ).catch((err: unknown) => this.deps.logger.error('turn crashed', { error: errorMessage(err) }));
  }

  /** An MCP server asks the user something during a tool call: ask through events, wait for the Op. */
  private async elicit(e: McpElicitation, ctx: ToolContext): Promise<McpElicitationResult> {
    if (this.settings.approvalPolicy === 'never') return { action: 'decline' };
    const waiting = this.broker.waitForElicitation(e.server, e.id, ctx.turnId, ctx.signal);
    ctx.emit({ type: 'elicitation_request', server_name: e.server, id: e.id, turn_id: ctx.turnId, request: e.request });
    try {
      return await waiting;
    } catch {
      return { action: 'cancel' };
    }
  }

  /** Abort the running turn, drop queued input, flush the rollout, end every events() iterator. */
  async shutdown(_options: { signal?: AbortSignal } = {}): Promise<void> {
    switch (this.state.kind) {
      case 'closed':
        return;
      case 'closing':
        return this.state.done;
      case 'running':
      case 'idle':
        break;
      default:
        assertNever(this.state, 'thread state');
    }
    const running = this.state.kind === 'running' ? this.state : null;
    const done = (async () => {
      this.queue.length = 0;
      if (running) {
        running.controller.abort(new SwitchboardError('turn_aborted', 'the thread is shutting down'));
        await running.done;
      }
      this.emit('', { type: 'shutdown_complete' });
      await this.deps.recorder.close();
      this.state = { kind: 'closed' };
      this.hub.close();
      this.deps.onClosed?.();
    })();
    this.state = { kind: 'closing', done };
    return done;
  }
}
