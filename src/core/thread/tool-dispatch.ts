// Running one function call from the model: find the tool, parse its arguments, give it a
// ToolContext (events, approvals through the broker), and turn its result into a conversation item.
import type { AskForApproval, EventMsg, ReviewDecision, SandboxPolicy } from '../../protocol/index.js';
import { errorMessage, isSwitchboardError, SwitchboardError } from '../../util/index.js';
import type { ResponseItem } from '../model/model-types.js';
import { turnAborted } from '../tools/mcp-tools.js';
import type { ApprovalRequest, Tool, ToolContext } from '../tools/tool.js';
import type { TurnTools } from '../tools/tool-registry.js';
import type { ApprovalBroker } from './approval-broker.js';

export type FunctionCall = Extract<ResponseItem, { type: 'function_call' }>;
export type FunctionCallOutput = Extract<ResponseItem, { type: 'function_call_output' }>;

export interface DispatchEnv {
  threadId: string;
  turnId: string;
  cwd: string;
  approvalPolicy: AskForApproval;
  sandboxPolicy: SandboxPolicy;
  signal: AbortSignal;
  emit(msg: EventMsg): void;
  broker: ApprovalBroker;
  /** Ends the turn (an `abort` decision). */
  abortTurn(reason: unknown): void;
}

/** A tool threw something other than `turn_aborted`: the turn ends with an error. */
export class ToolCrashed extends SwitchboardError {
  constructor(
    readonly output: FunctionCallOutput,
    cause: unknown,
  ) {
    super('tool_failed', `tool ${output.call_id} failed: ${errorMessage(cause)}`, { cause });
  }
}

export function toolContext(env: DispatchEnv, callId: string): ToolContext {
  let asked = 0;
  return {
    threadId: env.threadId,
    turnId: env.turnId,
    callId,
    cwd: env.cwd,
    approvalPolicy: env.approvalPolicy,
    sandboxPolicy: env.sandboxPolicy,
    signal: env.signal,
    emit: (msg) => env.emit(msg),
    isApprovedForSession: (request) => env.broker.isApprovedForSession(request),
    async requestApproval(request: ApprovalRequest): Promise<ReviewDecision> {
      if (env.broker.isApprovedForSession(request)) return 'approved_for_session';
      // Under `never` nobody is there to answer: the request is denied without asking.
      if (env.approvalPolicy === 'never') return 'denied';
      asked += 1;
      // The first question of a call is keyed by its call id; later ones get their own approval id.
      const approvalId = asked === 1 ? undefined : `${callId}:${asked}`;
      const key = approvalId ?? callId;
      const waiting = env.broker.waitForApproval(request.kind, key, env.turnId, env.signal);
      if (request.kind === 'exec') {
        env.emit({
          type: 'exec_approval_request',
          call_id: callId,
          ...(approvalId ? { approval_id: approvalId } : {}),
          turn_id: env.turnId,
          command: request.command,
          cwd: request.cwd,
          reason: request.reason,
          parsed_cmd: request.parsedCmd,
        });
      } else {
        env.emit({ type: 'apply_patch_approval_request', call_id: callId, turn_id: env.turnId, changes: request.changes, reason: request.reason, grant_root: request.grantRoot });
      }
      const decision = await waiting;
      if (decision === 'approved_for_session') env.broker.remember(request);
      if (decision === 'abort') {
        const err = turnAborted('the user chose abort');
        env.abortTurn(err);
        throw err;
      }
      return decision;
    },
  };
}

function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (raw.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (err) {
    return { ok: false, message: `failed to parse function arguments: ${errorMessage(err)}` };
  }
}

/** Run one call. Rejects with `turn_aborted` on abort and with ToolCrashed when the tool threw. */
export async function dispatchCall(env: DispatchEnv, tools: TurnTools, call: FunctionCall): Promise<FunctionCallOutput> {
  const output = (text: FunctionCallOutput['output']): FunctionCallOutput => ({ type: 'function_call_output', call_id: call.call_id, output: text });
  const tool: Tool | undefined = tools.get(call.name);
  if (!tool) return output(`unsupported call: ${call.name}`);
  const args = parseArguments(call.arguments);
  if (!args.ok) return output(args.message);
  try {
    const result = await tool.run(args.value, toolContext(env, call.call_id));
    if (env.signal.aborted) throw turnAborted(env.signal.reason);
    return output(result.output);
  } catch (err) {
    if (env.signal.aborted || isSwitchboardError(err, 'turn_aborted')) throw isSwitchboardError(err, 'turn_aborted') ? err : turnAborted(err);
    throw new ToolCrashed(output(`tool ${call.name} failed: ${errorMessage(err)}`), err);
  }
}
