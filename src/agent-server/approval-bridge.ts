// During one tool call, the thread's questions (exec and patch approvals, elicitations from the
// agent's own MCP servers) go to the MCP client as `elicitation/create` requests; each answer goes
// back to the thread as an Op. Questions are answered in the background so events keep flowing; when
// the call ends, pending questions are cancelled and late answers are ignored.
import type { Thread } from '../core/index.js';
import type { Event, EventMsgOf, ReviewDecision } from '../protocol/index.js';
import { errorMessage, type Logger } from '../util/index.js';
import {
  clampDecision,
  decisionFromResponse,
  EXEC_OFFERED_DECISIONS,
  execApprovalParams,
  PATCH_OFFERED_DECISIONS,
  patchApprovalParams,
  shellJoin,
  supportsFormElicitation,
  supportsUrlElicitation,
} from './approval-elicitation.js';

/** The way back to the client that made the tool call. */
export interface ClientChannel {
  /** `elicitation/create` related to the tool call; resolves with the client's raw result. */
  elicit(params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  /** The capabilities the client declared in `initialize`. */
  capabilities(): unknown;
}

export interface ApprovalBridgeDeps {
  channel: ClientChannel;
  thread: Thread;
  toolCallId: string;
  logger: Logger;
}

const noFormSupport = (what: string) =>
  `${what} was denied without asking: the MCP client did not declare form elicitation support (capabilities.elicitation), so switchboard cannot ask it. Use a client that supports elicitation, or pass approval-policy "never" with a sandbox that allows what the task needs.`;

export class ApprovalBridge {
  private readonly controller = new AbortController();

  constructor(private readonly deps: ApprovalBridgeDeps) {}

  /** React to an event that asks the user something; other events are ignored. */
  handle(event: Event): void {
    const msg = event.msg;
    switch (msg.type) {
      case 'exec_approval_request':
        void this.exec(event.id, msg);
        break;
      case 'apply_patch_approval_request':
        void this.patch(event.id, msg);
        break;
      case 'elicitation_request':
        void this.forward(msg);
        break;
      default:
        break;
    }
  }

  /** Cancel pending questions; answers that arrive later change nothing. */
  close(): void {
    this.controller.abort();
  }

  private origin(eventId: string) {
    return { threadId: this.deps.thread.id, toolCallId: this.deps.toolCallId, eventId };
  }

  private async ask(params: Record<string, unknown>, offered: readonly ReviewDecision[], what: string): Promise<ReviewDecision | null> {
    const signal = this.controller.signal;
    if (!supportsFormElicitation(this.deps.channel.capabilities())) {
      this.deps.thread.warn(noFormSupport(what));
      return 'denied';
    }
    try {
      const result = await this.deps.channel.elicit(params, signal);
      if (signal.aborted) return null;
      return clampDecision(decisionFromResponse(result), offered);
    } catch (err) {
      if (signal.aborted) return null;
      this.deps.logger.warn('approval elicitation failed; denying', { error: errorMessage(err) });
      return 'denied';
    }
  }

  private async exec(eventId: string, msg: EventMsgOf<'exec_approval_request'>): Promise<void> {
    const decision = await this.ask(execApprovalParams(this.origin(eventId), msg), EXEC_OFFERED_DECISIONS, `The request to run \`${shellJoin(msg.command)}\``);
    if (decision === null) return;
    await this.submit({ type: 'exec_approval', id: msg.approval_id ?? msg.call_id, turn_id: msg.turn_id, decision });
  }

  private async patch(eventId: string, msg: EventMsgOf<'apply_patch_approval_request'>): Promise<void> {
    const files = Object.keys(msg.changes).join(', ');
    const decision = await this.ask(patchApprovalParams(this.origin(eventId), msg), PATCH_OFFERED_DECISIONS, `The request to change ${files}`);
    if (decision === null) return;
    await this.submit({ type: 'patch_approval', id: msg.call_id, decision });
  }

  /** An elicitation from one of the agent's MCP servers, passed on as it came (reference §8.6). */
  private async forward(msg: EventMsgOf<'elicitation_request'>): Promise<void> {
    const signal = this.controller.signal;
    const caps = this.deps.channel.capabilities();
    const mode = msg.request.mode === 'url' ? 'url' : 'form';
    let answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> } = { action: 'cancel' };
    if (mode === 'url' ? supportsUrlElicitation(caps) : supportsFormElicitation(caps)) {
      try {
        const result = (await this.deps.channel.elicit(msg.request, signal)) as Record<string, unknown> | null;
        const action = result?.action;
        const content = result?.content;
        if (action === 'accept' || action === 'decline' || action === 'cancel') {
          answer = { action };
          if (typeof content === 'object' && content !== null && !Array.isArray(content)) answer.content = content as Record<string, unknown>;
        }
      } catch (err) {
        if (!signal.aborted) this.deps.logger.warn('forwarded elicitation failed; cancelling it', { server: msg.server_name, error: errorMessage(err) });
      }
    } else {
      this.deps.thread.warn(`${msg.server_name} asked a question the MCP client cannot show (no ${mode} elicitation support); it was cancelled.`);
    }
    if (signal.aborted) return;
    await this.submit({ type: 'resolve_elicitation', server_name: msg.server_name, request_id: msg.id, ...answer });
  }

  private async submit(op: Parameters<Thread['submit']>[0]): Promise<void> {
    try {
      await this.deps.thread.submit(op);
    } catch (err) {
      this.deps.logger.warn('could not deliver an answer to the thread', { op: op.type, error: errorMessage(err) });
    }
  }
}
