// An upstream's task as the work of a task in the host's table: its state and cancellation asked of
// the upstream through the manager; its result fetched when a 2025 client asks for it, or at once for
// a 2026-07-28 client (the upstream delivers the task's questions only while its tasks/result waits).
// Forgotten while it runs, it is cancelled upstream: no one can read it any more.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { PassThroughResult, UpstreamCaller } from '../mcp-client/index.js';
import type { McpConnectionManager } from '../mcp/index.js';
import { isTerminal, type TaskContext, type TaskState, type TaskWork } from '../mcp-host/index.js';
import { errorMessage, type Logger } from '../util/index.js';
import { toProtocolError } from './gateway-errors.js';
import { cancelUpstreamTask, TASK_RESULT_TIMEOUT_MS, withoutRelatedTask } from './upstream-tasks.js';

export class UpstreamTaskWork implements TaskWork {
  /** A 2026-07-28 task's outcome, asked for as soon as the task exists. */
  private readonly outcome: Promise<PassThroughResult> | undefined;
  private lastStatus: string;
  /** Keeps the upstream from being stopped for being idle (stop_after_idle_sec) while the task is held. */
  private readonly release: () => void;

  constructor(
    private readonly manager: McpConnectionManager,
    /** The upstream the task runs on, and the caller whose connection holds it (for servers that act as each caller). */
    private readonly home: { server: string; caller: UpstreamCaller | undefined },
    private readonly upstreamId: string,
    readonly initial: TaskState,
    readonly keepMs: number,
    private readonly context: TaskContext,
    private readonly unregister: () => void,
    private readonly logger: Logger,
  ) {
    this.lastStatus = initial.status;
    // Its result lives only in the upstream's process until the gateway forgets the task.
    this.release = manager.holdServer(home.server);
    if (context.era === 'modern') {
      // No question comes after the outcome: a tasks/get waiting for one answers now.
      this.outcome = this.fetch(context.signal).finally(() => context.settled());
      this.outcome.catch(() => {});
    }
  }

  async state(signal: AbortSignal): Promise<TaskState> {
    let now: PassThroughResult;
    try {
      now = await this.manager.taskRequest(this.home.server, 'tasks/get', this.upstreamId, { signal, ...this.reach() });
    } catch (err) {
      const e = toProtocolError(err);
      // The upstream no longer knows it (its ttl passed, it restarted): neither does the gateway now.
      throw e.code === ProtocolErrorCode.InvalidParams ? new ProtocolError(e.code, `MCP server '${this.home.server}' no longer knows the task: ${e.message}`) : e;
    }
    const state = withoutRelatedTask(now) as TaskState;
    this.lastStatus = state.status;
    return state;
  }

  async result(signal: AbortSignal): Promise<Record<string, unknown>> {
    if (!this.outcome) return this.fetch(signal);
    return await new Promise<Record<string, unknown>>((resolve, reject) => {
      const onAbort = () => reject(new Error('cancelled'));
      signal.addEventListener('abort', onAbort, { once: true });
      this.outcome!.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  async cancel(signal: AbortSignal): Promise<void> {
    try {
      await cancelUpstreamTask(this.manager, this.home.server, this.upstreamId, this.home.caller, signal);
    } catch (err) {
      throw toProtocolError(err);
    }
  }

  forgotten(): void {
    this.unregister();
    this.release();
    // Still running upstream with no one left to read it: the upstream need not run it to its end.
    if (isTerminal(this.lastStatus)) return;
    cancelUpstreamTask(this.manager, this.home.server, this.upstreamId, this.home.caller).catch((err: unknown) =>
      this.logger.debug('gateway: cancelling a forgotten task upstream failed', { server: this.home.server, error: errorMessage(err) }),
    );
  }

  private reach(): { caller?: UpstreamCaller } {
    return this.home.caller ? { caller: this.home.caller } : {};
  }

  /** The upstream's tasks/result: the call's result, or its JSON-RPC error. */
  private async fetch(signal: AbortSignal): Promise<PassThroughResult> {
    try {
      return withoutRelatedTask(await this.manager.taskRequest(this.home.server, 'tasks/result', this.upstreamId, { signal, timeoutMs: TASK_RESULT_TIMEOUT_MS, ...this.reach() }));
    } catch (err) {
      throw toProtocolError(err);
    }
  }
}
