// Running one `codex` or `codex-reply` call (reference §5): admission, the thread (started, found, or
// resumed from its rollout), the prompt submitted as a turn, then every event forwarded until that
// turn's task_complete or turn_aborted decides the tool result.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Thread, ThreadManager } from '../core/index.js';
import type { Event, EventMsgOf } from '../protocol/index.js';
import { errorMessage, isSwitchboardError, type Logger } from '../util/index.js';
import { ApprovalBridge, type ClientChannel } from './approval-bridge.js';
import { shellJoin } from './approval-elicitation.js';
import { callConfig, threadOverrides, type ServerConfig } from './call-config.js';
import type { CallCeilings, Ceiling } from './call-ceilings.js';
import { approvalLeavesCeiling, checkCodexCall, checkThread, refusedConfigKey } from './ceiling-check.js';
import type { ThreadLease, ThreadLeases } from '../store/index.js';
import type { TurnLimiter } from './call-limits.js';
import type { IdleThreads } from './idle-threads.js';
import type { CallNotifier } from './call-notifier.js';
import { upstreamCaller, type Caller, type CallerView } from '../mcp-host/index.js';
import type { ThreadOwners } from './thread-owners.js';
import { parseThreadId, type CodexArgs, type ReplyArgs } from './tool-args.js';
import * as T from './texts.js';

/** What every call of one server process shares. */
export interface CodexAgent {
  manager: ThreadManager;
  config: ServerConfig;
  /** The server process's working directory (relative `cwd` arguments resolve against it). */
  cwd: string;
  /** One turn per thread; shared leases (replicas) also mean no thread stays in memory between calls. */
  leases: ThreadLeases;
  turns: TurnLimiter;
  idle: IdleThreads;
  owners: ThreadOwners;
  /** HTTP only: what each caller's arguments may change (stdio has none: the caller is the user). */
  ceilings?: CallCeilings;
}

export interface CallContext {
  agent: CodexAgent;
  /** The `tools/call` request id as a string (the first turn's id, `codex_mcp_tool_call_id`). */
  toolCallId: string;
  notifier: CallNotifier;
  channel: ClientChannel;
  /** Aborted by `notifications/cancelled` for this call, or when the connection goes away. */
  cancel: AbortSignal;
  logger: Logger;
  /** Who called (HTTP with [server_auth]); undefined on stdio. */
  caller?: Caller;
  view: CallerView;
}

export function toolError(text: string, threadId?: string): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    isError: true,
    ...(threadId !== undefined ? { structuredContent: { threadId, content: text } } : {}),
  };
}

export function toolSuccess(threadId: string, text: string): CallToolResult {
  // The text is duplicated because some clients ignore `content` when `structuredContent` is present.
  return { content: [{ type: 'text', text }], structuredContent: { threadId, content: text } };
}

type EventIterator = AsyncIterator<Event>;

export async function runCodexCall(ctx: CallContext, args: CodexArgs): Promise<CallToolResult> {
  const { agent } = ctx;
  const ceiling = agent.ceilings?.for(ctx.caller) ?? null;
  // Before anything is built from them: a refused key never reaches the config.
  const refusedKey = ceiling && refusedConfigKey(args.config ?? {}, ceiling.configKeys);
  if (refusedKey) return toolError(T.configKeyRefused(refusedKey));
  const releaseTurn = agent.turns.tryAcquire();
  if (!releaseTurn) return toolError(T.tooManyTurns(agent.turns.limit));
  try {
    let built;
    try {
      built = callConfig(agent.config, args);
    } catch (err) {
      return toolError(T.configLoadFailed(errorMessage(err)));
    }
    let overrides = threadOverrides(agent.config, args, agent.cwd);
    if (ceiling) {
      const checked = await checkCodexCall(ceiling, { server: agent.config, args, config: built.config, overrides, serverCwd: agent.cwd });
      if (!checked.ok) return toolError(checked.message);
      overrides = checked.overrides;
    }
    if (overrides.cwd !== undefined && !(await stat(overrides.cwd).catch(() => null))?.isDirectory()) {
      return toolError(T.sessionStartFailed(`cwd ${overrides.cwd} is not a directory`));
    }
    if (ctx.cancel.aborted) return toolError(T.CANCELLED_DURING_STARTUP);
    let thread: Thread;
    try {
      thread = await agent.manager.start(overrides, { config: built.config });
    } catch (err) {
      return toolError(T.sessionStartFailed(errorMessage(err)));
    }
    await ctx.agent.owners.record(thread.id, ctx.caller);
    const events = thread.events()[Symbol.asyncIterator]();
    for (const w of built.warnings) thread.warn(w);
    // A new thread has no other owner; the lease keeps `codex-reply` off it until this call answers.
    let lease: ThreadLease | null = null;
    try {
      try {
        lease = await agent.leases.tryAcquire(thread.id);
      } catch (err) {
        return toolError(T.sessionStartFailed(errorMessage(err)), thread.id);
      }
      if (ctx.cancel.aborted) return toolError(T.CANCELLED_DURING_STARTUP, thread.id);
      return await driveTurn(ctx, thread, events, { turnId: ctx.toolCallId, prompt: args.prompt, initial: true, lost: lease?.lost, ceiling });
    } finally {
      void events.return?.();
      await endCall(agent, thread, lease);
    }
  } finally {
    releaseTurn();
  }
}

/**
 * After a call: with shared leases the thread is written out and closed before its lease goes, so the
 * next turn, on whichever replica, starts from the store; otherwise it stays in memory until idle.
 */
async function endCall(agent: CodexAgent, thread: Thread, lease: ThreadLease | null): Promise<void> {
  if (agent.leases.shared) await thread.shutdown();
  else agent.idle.touch(thread.id);
  await lease?.release();
}

export async function runReplyCall(ctx: CallContext, args: ReplyArgs): Promise<CallToolResult> {
  const { agent } = ctx;
  if (args.threadId === null) return toolError(T.NO_THREAD_ID);
  const parsed = parseThreadId(args.threadId);
  if (!parsed.ok) return toolError(T.badThreadId(parsed.message));
  const threadId = parsed.value;
  // Another caller's thread is answered like one that does not exist.
  if (!(await agent.owners.mayContinue(threadId, ctx.caller, ctx.view))) return toolError(T.sessionNotFound(threadId), threadId);
  let lease: ThreadLease | null;
  try {
    lease = await agent.leases.tryAcquire(threadId);
  } catch (err) {
    return toolError(T.resumeFailed(threadId, errorMessage(err)), threadId);
  }
  if (!lease) return toolError(T.THREAD_BUSY, threadId);
  let thread: Thread | undefined;
  try {
    const releaseTurn = agent.turns.tryAcquire();
    if (!releaseTurn) return toolError(T.tooManyTurns(agent.turns.limit), threadId);
    try {
      thread = agent.manager.find(threadId);
      if (thread && thread.status !== 'idle' && thread.status !== 'running') {
        // Being shut down (idle, or the server stopping): wait, then continue from the rollout.
        await thread.shutdown();
        thread = undefined;
      }
      if (!thread) {
        try {
          // Beyond Codex: a thread that is not in memory (e.g. after a restart) continues from its rollout.
          thread = await agent.manager.resume(threadId, {}, { config: agent.config.base });
        } catch (err) {
          if (isSwitchboardError(err, 'thread_not_found')) return toolError(T.sessionNotFound(threadId), threadId);
          return toolError(T.resumeFailed(threadId, errorMessage(err)), threadId);
        }
      }
      const ceiling = agent.ceilings?.for(ctx.caller) ?? null;
      const beyond = ceiling && checkThread(ceiling, thread.settings);
      if (beyond) return toolError(beyond, threadId);
      const events = thread.events()[Symbol.asyncIterator]();
      try {
        if (ctx.cancel.aborted) return toolError(T.CANCELLED_BEFORE_TURN, threadId);
        return await driveTurn(ctx, thread, events, { turnId: randomUUID(), prompt: args.prompt, initial: false, lost: lease.lost, ceiling });
      } finally {
        void events.return?.();
      }
    } finally {
      releaseTurn();
    }
  } finally {
    if (thread) await endCall(agent, thread, lease);
    else await lease.release();
  }
}

interface TurnPlan {
  turnId: string;
  prompt: string;
  /** The thread's first turn (`codex`): its session_configured is forwarded; replies skip it. */
  initial: boolean;
  /** Aborted when the thread's lease is lost: the turn stops so another replica can continue the thread. */
  lost: AbortSignal | undefined;
  /** The caller's ceiling: approvals that would leave it are denied without asking. */
  ceiling: Ceiling | null;
}

async function driveTurn(ctx: CallContext, thread: Thread, events: EventIterator, plan: TurnPlan): Promise<CallToolResult> {
  const bridge = new ApprovalBridge({ channel: ctx.channel, thread, toolCallId: ctx.toolCallId, logger: ctx.logger });
  const interrupt = () => void thread.submit({ type: 'interrupt' }).catch(() => {});
  // Only this call's turn may be interrupted; the lease guarantees it is the one running.
  const onCancel = () => {
    if (thread.status === 'running') interrupt();
  };
  ctx.notifier.startHeartbeat();
  try {
    try {
      // The turn acts as the caller of this call upstream (servers with identity = "caller"), whoever started the thread.
      const caller = upstreamCaller(ctx.caller);
      await thread.submit({ type: 'user_input', items: [{ type: 'text', text: plan.prompt }] }, { id: plan.turnId, ...(caller ? { caller } : {}) });
    } catch (err) {
      const text = plan.initial ? T.initialPromptFailed(errorMessage(err)) : T.userInputFailed(errorMessage(err));
      return toolError(text, thread.id);
    }
    ctx.cancel.addEventListener('abort', onCancel, { once: true });
    plan.lost?.addEventListener('abort', onCancel, { once: true });
    if (ctx.cancel.aborted || plan.lost?.aborted) onCancel();
    for (;;) {
      const next = await events.next();
      if (next.done) return toolError(T.runtimeError('the thread shut down before the turn finished'), thread.id);
      const event = next.value;
      const msg = event.msg;
      if (!plan.initial && msg.type === 'session_configured') continue;
      // Every event reaches the client before the call reacts to it (task_complete precedes the result).
      await ctx.notifier.event(thread.id, event);
      switch (msg.type) {
        case 'task_started':
          // A cancel that raced the start of a queued turn still ends it.
          if (msg.turn_id === plan.turnId && ctx.cancel.aborted) interrupt();
          break;
        case 'exec_approval_request':
        case 'apply_patch_approval_request':
          if (approvalLeavesCeiling(plan.ceiling, msg)) await denyUnasked(thread, msg, plan.ceiling!);
          else bridge.handle(event);
          break;
        case 'elicitation_request':
          bridge.handle(event);
          break;
        case 'task_complete':
          if (msg.turn_id !== plan.turnId) break;
          if (msg.error) return toolError(msg.error.message, thread.id);
          return toolSuccess(thread.id, msg.last_agent_message ?? '');
        case 'turn_aborted':
          if (msg.turn_id !== plan.turnId) break;
          return toolError(T.TURN_ABORTED, thread.id);
        default:
          break;
      }
    }
  } finally {
    ctx.cancel.removeEventListener('abort', onCancel);
    plan.lost?.removeEventListener('abort', onCancel);
    bridge.close();
    ctx.notifier.stop();
  }
}

/** An approval the caller may not give: denied at once, with a warning event saying why. */
async function denyUnasked(thread: Thread, msg: EventMsgOf<'exec_approval_request'> | EventMsgOf<'apply_patch_approval_request'>, ceiling: Ceiling): Promise<void> {
  const what = msg.type === 'exec_approval_request' ? `The request to run \`${shellJoin(msg.command)}\`` : `The request to change ${Object.keys(msg.changes).join(', ')}`;
  thread.warn(T.approvalNotAskable(what, ceiling.sandbox));
  const op =
    msg.type === 'exec_approval_request'
      ? ({ type: 'exec_approval', id: msg.approval_id ?? msg.call_id, turn_id: msg.turn_id, decision: 'denied' } as const)
      : ({ type: 'patch_approval', id: msg.call_id, decision: 'denied' } as const);
  await thread.submit(op).catch(() => {});
}
