// One `tools/call` of the agent server, whichever revision the client speaks and whether it runs as
// a task: the tool named (within the caller's view), its arguments parsed, the call run on its thread
// with events and progress where the caller says, and approvals through the request's own way of
// asking (a 2025 elicitation request, a 2026-07-28 input-required round) or the task's.
import type { CallToolRequestParams, CallToolResult } from '@modelcontextprotocol/server';
import type { Req } from '../mcp-host/index.js';
import { errorMessage, type Logger } from '../util/index.js';
import type { ClientChannel } from './approval-bridge.js';
import { CallNotifier } from './call-notifier.js';
import { parseCodexArgs, parseReplyArgs, parseThreadId } from './tool-args.js';
import { CODEX_REPLY_TOOL, CODEX_TOOL } from './tool-definitions.js';
import { runCodexCall, runReplyCall, toolError, type CallContext, type CodexAgent } from './tool-call.js';
import * as T from './texts.js';

/** What the agent server passes every call. */
export interface ToolDispatch {
  agent: CodexAgent;
  options: { codexEvents: boolean; heartbeatMs: number };
  logger: Logger;
}

export type CallAccess = Pick<CallContext, 'caller' | 'view'>;

/** Who is calling (HTTP with [server_auth]) and what its rules let it use. */
export function accessOf(req: Pick<Req, 'caller' | 'view'>): CallAccess {
  return { ...(req.caller ? { caller: req.caller } : {}), view: req.view };
}

/** Answers for a name or arguments that cannot start a call; undefined when the call may run. */
export function refuseCall(params: CallToolRequestParams, access: CallAccess): CallToolResult | undefined {
  const name = params.name;
  // A tool outside the caller's view is answered like one that does not exist.
  if ((name !== CODEX_TOOL && name !== CODEX_REPLY_TOOL) || !access.view.allowsOwn(name)) return toolError(T.unknownTool(name));
  if (params.arguments === undefined) return toolError(name === CODEX_TOOL ? T.MISSING_CODEX_ARGS : T.MISSING_REPLY_ARGS);
  return undefined;
}

/**
 * A task-augmented `codex-reply` on a thread the caller may not continue: refused before any task
 * exists (a task created for it would read as a success until polled), as a thread that does not exist.
 */
export async function refuseTask(agent: CodexAgent, params: CallToolRequestParams, access: CallAccess): Promise<CallToolResult | undefined> {
  const refusal = refuseCall(params, access);
  if (refusal || params.name !== CODEX_REPLY_TOOL) return refusal;
  const args = parseReplyArgs(params.arguments);
  const id = args.ok && args.value.threadId !== null ? parseThreadId(args.value.threadId) : undefined;
  if (!id?.ok || (await agent.owners.mayContinue(id.value, access.caller, access.view))) return undefined;
  return toolError(T.sessionNotFound(id.value), id.value);
}

export interface CallRun extends CallAccess {
  toolCallId: string;
  cancel: AbortSignal;
  notifier: CallNotifier;
  channel: ClientChannel;
}

/** Runs an accepted call (a request's or a task's). */
export async function runToolCall(d: ToolDispatch, params: CallToolRequestParams, run: CallRun): Promise<CallToolResult> {
  const refusal = refuseCall(params, run);
  if (refusal) return refusal;
  const callCtx: CallContext = {
    agent: d.agent,
    toolCallId: run.toolCallId,
    cancel: run.cancel,
    ...(run.caller ? { caller: run.caller } : {}),
    view: run.view,
    logger: d.logger.child({ requestId: run.toolCallId }),
    notifier: run.notifier,
    channel: run.channel,
  };
  try {
    if (params.name === CODEX_TOOL) {
      const args = parseCodexArgs(params.arguments);
      if (!args.ok) return toolError(T.badArguments(args.message));
      return await runCodexCall(callCtx, args.value);
    }
    const args = parseReplyArgs(params.arguments);
    if (!args.ok) return toolError(T.badArguments(args.message));
    return await runReplyCall(callCtx, args.value);
  } catch (err) {
    d.logger.error('tool call failed', { error: errorMessage(err) });
    return toolError(T.runtimeError(errorMessage(err)));
  }
}

/** The way a request asks its client: approvals sent raw, so the codex_* fields reach it untouched and a legacy `{decision}` answer is read as it came. */
export function requestChannel(req: Req): ClientChannel {
  return {
    elicit: (params, signal) => req.ask({ method: 'elicitation/create', params } as Parameters<Req['ask']>[0], { signal, raw: true }),
    capabilities: () => req.clientCapabilities,
  };
}

/** A call answered on its request: events and progress on the request's own stream. */
export function dispatchToolCall(d: ToolDispatch, params: CallToolRequestParams, req: Req): Promise<CallToolResult> {
  const progressToken = req.meta?.progressToken;
  return runToolCall(d, params, {
    ...accessOf(req),
    toolCallId: String(req.id),
    cancel: req.signal,
    notifier: new CallNotifier({
      send: (n) => req.notify(n),
      requestId: req.id,
      progressToken: typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined,
      codexEvents: d.options.codexEvents,
      heartbeatMs: d.options.heartbeatMs,
      logger: d.logger,
    }),
    channel: requestChannel(req),
  });
}
