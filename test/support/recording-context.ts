// A real ToolContext for driving tools in tests: records every event (validated against the
// protocol schema), answers approvals from a script, and remembers approved_for_session the way a
// thread does (exec by command argv, patch by grant root or path set).
import {
  EventMsgSchema,
  type AskForApproval,
  type EventMsg,
  type EventMsgOf,
  type EventMsgType,
  type ReviewDecision,
  type SandboxPolicy,
} from '../../src/protocol/index.js';
import { SwitchboardError } from '../../src/util/index.js';
import type { ApprovalRequest, ToolContext } from '../../src/core/index.js';

export type Answer = (request: ApprovalRequest) => ReviewDecision | Promise<ReviewDecision>;

export interface RecordingContextOptions {
  cwd: string;
  approvalPolicy: AskForApproval;
  sandboxPolicy: SandboxPolicy;
  answer?: Answer;
  signal?: AbortSignal;
  callId?: string;
}

function sessionKey(request: ApprovalRequest): string {
  if (request.kind === 'exec') return `exec:${JSON.stringify(request.command)}`;
  return `patch:${request.grantRoot ?? JSON.stringify(Object.keys(request.changes).sort())}`;
}

export class RecordingContext implements ToolContext {
  readonly threadId = 'thread-test';
  readonly turnId = 'turn-1';
  callId: string;
  readonly cwd: string;
  readonly approvalPolicy: AskForApproval;
  readonly sandboxPolicy: SandboxPolicy;
  readonly signal: AbortSignal;
  readonly events: EventMsg[] = [];
  readonly approvals: ApprovalRequest[] = [];
  readonly #approvedForSession = new Set<string>();
  #answer: Answer;
  #calls = 0;

  constructor(options: RecordingContextOptions) {
    this.cwd = options.cwd;
    this.approvalPolicy = options.approvalPolicy;
    this.sandboxPolicy = options.sandboxPolicy;
    this.signal = options.signal ?? new AbortController().signal;
    this.callId = options.callId ?? 'call-1';
    this.#answer = options.answer ?? (() => {
      throw new Error('unexpected approval request');
    });
  }

  /** Give the next tool call its own call id (as the turn loop does). */
  nextCall(): this {
    this.callId = `call-${++this.#calls + 1}`;
    return this;
  }

  set answer(answer: Answer) {
    this.#answer = answer;
  }

  emit(msg: EventMsg): void {
    // Every event a tool sends must be a valid protocol event.
    this.events.push(EventMsgSchema.parse(msg));
  }

  async requestApproval(request: ApprovalRequest): Promise<ReviewDecision> {
    this.approvals.push(request);
    if (request.kind === 'exec') {
      this.emit({
        type: 'exec_approval_request',
        call_id: this.callId,
        turn_id: this.turnId,
        command: request.command,
        cwd: request.cwd,
        reason: request.reason,
        parsed_cmd: request.parsedCmd,
      });
    } else {
      this.emit({
        type: 'apply_patch_approval_request',
        call_id: this.callId,
        turn_id: this.turnId,
        changes: request.changes,
        reason: request.reason,
        grant_root: request.grantRoot,
      });
    }
    const decision = await this.#answer(request);
    if (decision === 'abort') throw new SwitchboardError('turn_aborted', 'turn aborted by the user');
    if (decision === 'approved_for_session') this.#approvedForSession.add(sessionKey(request));
    return decision;
  }

  isApprovedForSession(request: ApprovalRequest): boolean {
    return this.#approvedForSession.has(sessionKey(request));
  }

  of<T extends EventMsgType>(type: T): EventMsgOf<T>[] {
    return this.events.filter((e): e is EventMsgOf<T> => e.type === type);
  }

  /** Concatenated output deltas of one stream, decoded. */
  streamed(stream: 'stdout' | 'stderr'): string {
    return this.of('exec_command_output_delta')
      .filter((e) => e.stream === stream)
      .map((e) => Buffer.from(e.chunk, 'base64').toString('utf8'))
      .join('');
  }
}
