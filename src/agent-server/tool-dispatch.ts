// One `tools/call` of the agent server, whichever era the client speaks: the tool named, its
// arguments parsed, the call run on its thread with events and progress on the request's stream and
// approvals through the channel the era gives (a 2025 elicitation request, a 2026 input-required result).
import type { CallToolRequestParams, CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { errorMessage, type Logger } from '../util/index.js';
import type { ClientChannel } from './approval-bridge.js';
import { CallNotifier } from './call-notifier.js';
import type { CodexServerOptions } from './codex-server.js';
import { parseCodexArgs, parseReplyArgs } from './tool-args.js';
import { CODEX_REPLY_TOOL, CODEX_TOOL } from './tool-definitions.js';
import { runCodexCall, runReplyCall, toolError, type CodexAgent } from './tool-call.js';
import * as T from './texts.js';

export interface ToolDispatch {
  agent: CodexAgent;
  options: CodexServerOptions;
  logger: Logger;
}

/** Answers for a name or arguments that cannot start a call; undefined when the call may run. */
export function refuseCall(params: CallToolRequestParams): CallToolResult | undefined {
  const name = params.name;
  if (name !== CODEX_TOOL && name !== CODEX_REPLY_TOOL) return toolError(T.unknownTool(name));
  if (params.arguments === undefined) return toolError(name === CODEX_TOOL ? T.MISSING_CODEX_ARGS : T.MISSING_REPLY_ARGS);
  return undefined;
}

export async function dispatchToolCall(d: ToolDispatch, params: CallToolRequestParams, ctx: ServerContext, cancel: AbortSignal, channel: ClientChannel): Promise<CallToolResult> {
  const refusal = refuseCall(params);
  if (refusal) return refusal;
  const requestId = ctx.mcpReq.id;
  const progressToken = ctx.mcpReq._meta?.progressToken;
  const callCtx = {
    agent: d.agent,
    toolCallId: String(requestId),
    cancel,
    logger: d.logger.child({ requestId: String(requestId) }),
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
