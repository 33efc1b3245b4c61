// One `tools/call` of the agent server, whichever era the client speaks and whether it runs as a
// task: the tool named (within the caller's view), its arguments parsed, the call run on its thread
// with events and progress where the caller says, and approvals through the channel the era gives (a
// 2025 elicitation request, a 2026 input-required result).
import type { CallToolRequestParams, CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { errorMessage, type Logger } from '../util/index.js';
import { callerOf, UNRESTRICTED } from '../mcp-host/index.js';
import type { ClientChannel } from './approval-bridge.js';
import { CallNotifier } from './call-notifier.js';
import type { CodexServerOptions } from './codex-server.js';
import { parseCodexArgs, parseReplyArgs } from './tool-args.js';
import { CODEX_REPLY_TOOL, CODEX_TOOL } from './tool-definitions.js';
import { runCodexCall, runReplyCall, toolError, type CallContext, type CodexAgent } from './tool-call.js';
import * as T from './texts.js';

export interface ToolDispatch {
  agent: CodexAgent;
  options: CodexServerOptions;
  logger: Logger;
}

export type CallAccess = Pick<CallContext, 'caller' | 'view'>;

/** Who is calling (HTTP with [server_auth]) and what its rules let it use. */
export function accessOf(agent: CodexAgent, ctx: ServerContext): CallAccess {
  const caller = callerOf(ctx.http?.authInfo);
  return { ...(caller ? { caller } : {}), view: agent.access?.viewFor(caller) ?? UNRESTRICTED };
}

/** Answers for a name or arguments that cannot start a call; undefined when the call may run. */
export function refuseCall(params: CallToolRequestParams, access: CallAccess): CallToolResult | undefined {
  const name = params.name;
  // A tool outside the caller's view is answered like one that does not exist.
  if ((name !== CODEX_TOOL && name !== CODEX_REPLY_TOOL) || !access.view.allowsOwn(name)) return toolError(T.unknownTool(name));
  if (params.arguments === undefined) return toolError(name === CODEX_TOOL ? T.MISSING_CODEX_ARGS : T.MISSING_REPLY_ARGS);
  return undefined;
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

/** A call answered on its request: events and progress on the request's own stream. */
export function dispatchToolCall(d: ToolDispatch, params: CallToolRequestParams, ctx: ServerContext, cancel: AbortSignal, channel: ClientChannel): Promise<CallToolResult> {
  const requestId = ctx.mcpReq.id;
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return runToolCall(d, params, {
    ...accessOf(d.agent, ctx),
    toolCallId: String(requestId),
    cancel,
    notifier: new CallNotifier({
      // codex/event is not a spec notification: the SDK sends it as is, but its types need the cast.
      send: (n) => ctx.mcpReq.notify(n as Parameters<typeof ctx.mcpReq.notify>[0]),
      requestId,
      progressToken: typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined,
      codexEvents: d.options.codexEvents,
      heartbeatMs: d.options.heartbeatMs,
      logger: d.logger,
    }),
    channel,
  });
}
