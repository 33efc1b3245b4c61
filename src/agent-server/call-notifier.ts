// What one tool call tells its client while it runs: every core event as a `codex/event`
// notification (Codex's shape, reference §7.1) and, when the client sent a progressToken, standard
// `notifications/progress` as the turn advances plus a heartbeat, so request timeouts keep resetting.
import type { RequestId } from '@modelcontextprotocol/server';
import type { Event, EventMsg } from '../protocol/index.js';
import { errorMessage, type Logger } from '../util/index.js';

export interface OutgoingNotification {
  method: string;
  params: Record<string, unknown>;
}

export interface CallNotifierDeps {
  /** Sends a notification related to the originating request (its stream over HTTP). */
  send(notification: OutgoingNotification): Promise<void>;
  requestId: RequestId;
  progressToken: string | number | undefined;
  /** `mcp_server.codex_events`: false turns the custom notifications off. */
  codexEvents: boolean;
  /** Progress is sent at least this often while the turn runs (0: no heartbeat). */
  heartbeatMs: number;
  logger: Logger;
}

// Streaming deltas would otherwise mean one progress notification per token.
const DELTA_PROGRESS_INTERVAL_MS = 1000;

function shorten(text: string, max = 80): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A short progress message for the events worth one; deltas are marked so they can be throttled. */
export function progressNote(msg: EventMsg): { message: string; delta: boolean } | null {
  switch (msg.type) {
    case 'task_started':
      return { message: 'turn started', delta: false };
    case 'agent_message_delta':
      return { message: 'writing a reply', delta: true };
    case 'agent_reasoning_delta':
      return { message: 'thinking', delta: true };
    case 'agent_message':
      return { message: shorten(msg.message) || 'replied', delta: false };
    case 'exec_command_begin':
      return { message: `running ${shorten(msg.command.join(' '))}`, delta: false };
    case 'exec_command_output_delta':
      return { message: 'command output', delta: true };
    case 'exec_command_end':
      return { message: `command finished (exit ${msg.exit_code})`, delta: false };
    case 'exec_approval_request':
      return { message: `waiting for approval to run ${shorten(msg.command.join(' '))}`, delta: false };
    case 'apply_patch_approval_request':
      return { message: 'waiting for approval to apply a patch', delta: false };
    case 'patch_apply_begin':
      return { message: 'applying a patch', delta: false };
    case 'mcp_tool_call_begin':
      return { message: `calling ${msg.invocation.server}.${msg.invocation.tool}`, delta: false };
    case 'elicitation_request':
      return { message: `waiting for an answer to ${msg.server_name}`, delta: false };
    default:
      // Nothing for the turn's end: the result follows at once, and a progress notification read in
      // the same chunk as the response reaches SDK clients after they dropped the token.
      return null;
  }
}

export class CallNotifier {
  private progress = 0;
  private lastProgressAt = 0;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private stopped = false;

  constructor(private readonly deps: CallNotifierDeps) {}

  /** Forward one core event; never rejects (a client that went away only loses notifications). */
  async event(threadId: string, event: Event): Promise<void> {
    if (this.deps.codexEvents) {
      await this.send({ method: 'codex/event', params: { _meta: { requestId: this.deps.requestId, threadId }, id: event.id, msg: event.msg } });
    }
    const note = progressNote(event.msg);
    if (note && (!note.delta || Date.now() - this.lastProgressAt >= DELTA_PROGRESS_INTERVAL_MS)) await this.sendProgress(note.message);
  }

  /** Progress with a message of the caller's (e.g. while an approval is pending). */
  async note(message: string): Promise<void> {
    await this.sendProgress(message);
  }

  startHeartbeat(): void {
    if (this.deps.progressToken === undefined || this.deps.heartbeatMs <= 0 || this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastProgressAt >= this.deps.heartbeatMs) void this.sendProgress('still working');
    }, this.deps.heartbeatMs);
    this.heartbeat.unref?.();
  }

  /** Called before the result is sent: nothing about this call follows its response. */
  stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.stopped = true;
  }

  private async sendProgress(message: string): Promise<void> {
    if (this.deps.progressToken === undefined || this.stopped) return;
    this.progress += 1;
    this.lastProgressAt = Date.now();
    await this.send({ method: 'notifications/progress', params: { progressToken: this.deps.progressToken, progress: this.progress, message } });
  }

  private async send(notification: OutgoingNotification): Promise<void> {
    try {
      await this.deps.send(notification);
    } catch (err) {
      this.deps.logger.debug('notification not delivered', { method: notification.method, error: errorMessage(err) });
    }
  }
}
