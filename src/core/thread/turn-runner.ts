// One turn: record the user input, then alternate model requests and tool calls until the model
// answers without calling a tool. Ends with exactly one of task_complete (maybe carrying an error,
// after an `error` event) or turn_aborted.
import type { EventMsg, InputItem, TokenUsage } from '../../protocol/index.js';
import { assertNever, errorMessage, isSwitchboardError, type Logger } from '../../util/index.js';
import { agentTurnSpan, modelRequestSpan, toolCallSpan, type SpanHandle, type Telemetry } from '../../util/telemetry/index.js';
import { messageText, type ModelClient, type ResponseEvent, type ResponseItem } from '../model/model-types.js';
import type { McpCaller } from '../mcp-tool-source.js';
import type { RolloutRecorder } from '../rollout/rollout-recorder.js';
import type { ElicitationHandler } from '../tools/mcp-tools.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ApprovalBroker } from './approval-broker.js';
import { baseInstructions, contextItems } from './instructions.js';
import type { ThreadSettings } from './thread-settings.js';
import { dispatchCall, ToolCrashed, type DispatchEnv, type FunctionCall } from './tool-dispatch.js';

export interface UsageTotals {
  total: TokenUsage;
}

export interface TurnEnv {
  threadId: string;
  turnId: string;
  settings: ThreadSettings;
  /** The thread's conversation; the turn appends to it. */
  history: ResponseItem[];
  model: ModelClient;
  registry: ToolRegistry;
  broker: ApprovalBroker;
  recorder: RolloutRecorder;
  usage: UsageTotals;
  emit(msg: EventMsg): void;
  /** Emit a warning once per thread. */
  warnOnce(message: string): void;
  elicit: ElicitationHandler | null;
  /** Whom the turn's MCP requests are made for (the caller whose input started it); absent: the operator. */
  caller?: McpCaller;
  controller: AbortController;
  logger: Logger;
  telemetry: Telemetry;
}

export type TurnOutcome = { kind: 'completed'; lastAgentMessage: string | null } | { kind: 'aborted' } | { kind: 'failed'; message: string };

function userItem(items: InputItem[]): ResponseItem {
  return {
    type: 'message',
    role: 'user',
    content: items.map((i) => (i.type === 'text' ? { type: 'input_text' as const, text: i.text } : { type: 'input_image' as const, image_url: i.image_url })),
  };
}

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    cached_input_tokens: a.cached_input_tokens + b.cached_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    reasoning_output_tokens: a.reasoning_output_tokens + b.reasoning_output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

class TurnRun {
  private lastAgentMessage: string | null = null;
  private readonly signal: AbortSignal;

  constructor(private readonly env: TurnEnv) {
    this.signal = env.controller.signal;
  }

  private commit(items: ResponseItem[]): void {
    this.env.history.push(...items);
    this.env.recorder.recordItems(items);
  }

  /** Handle one streamed event; returns the attempt's items so far (reset on retry). */
  private onEvent(ev: ResponseEvent, items: ResponseItem[], span: SpanHandle): ResponseItem[] {
    const { emit } = this.env;
    switch (ev.type) {
      case 'created':
        return items;
      case 'output_text_delta':
        emit({ type: 'agent_message_delta', delta: ev.delta });
        return items;
      case 'reasoning_delta':
        emit({ type: 'agent_reasoning_delta', delta: ev.delta });
        return items;
      case 'output_item_done': {
        const item = ev.item;
        if (item.type === 'message' && item.role === 'assistant') {
          this.lastAgentMessage = messageText(item);
          emit({ type: 'agent_message', message: this.lastAgentMessage });
        } else if (item.type === 'reasoning' && item.summary.length > 0) {
          emit({ type: 'agent_reasoning', text: item.summary.join('\n\n') });
        }
        return [...items, item];
      }
      case 'completed': {
        if (ev.usage) {
          span.set('gen_ai.usage.input_tokens', ev.usage.input_tokens);
          span.set('gen_ai.usage.output_tokens', ev.usage.output_tokens);
          this.env.usage.total = addUsage(this.env.usage.total, ev.usage);
          emit({ type: 'token_count', info: { total_token_usage: this.env.usage.total, last_token_usage: ev.usage, model_context_window: null }, rate_limits: null });
        }
        return items;
      }
      case 'retrying':
        // Whatever the broken attempt produced is void; the request is sent again as it was.
        emit({ type: 'stream_error', message: `Reconnecting... ${ev.attempt}/${ev.maxAttempts} (${ev.message})` });
        return [];
      default:
        return assertNever(ev, 'response event');
    }
  }

  private async sample(): Promise<FunctionCall[]> {
    const { env } = this;
    const s = env.settings;
    const tools = await env.registry.forRequest({
      signal: this.signal,
      elicit: env.elicit,
      ...(env.caller ? { caller: env.caller } : {}),
      toolSearch: {
        settings: { mode: s.toolSearch, model: s.model, contextWindow: s.modelContextWindow, alwaysLoaded: s.alwaysLoadedServers },
        history: env.history,
      },
    });
    for (const w of tools.warnings) env.warnOnce(w);
    const request = {
      model: env.settings.model,
      instructions: baseInstructions(env.settings),
      input: [...contextItems(env.settings), ...env.history],
      tools: tools.specs,
      threadId: env.threadId,
    };
    const model = { model: env.settings.model, provider: env.settings.provider.id, threadId: env.threadId };
    const items = await env.telemetry.span(modelRequestSpan(model), async (span) => {
      let got: ResponseItem[] = [];
      for await (const ev of env.model.stream(request, { signal: this.signal })) got = this.onEvent(ev, got, span);
      return got;
    });
    this.commit(items);
    const calls = items.filter((i): i is FunctionCall => i.type === 'function_call');
    const dispatchEnv: DispatchEnv = {
      threadId: env.threadId,
      turnId: env.turnId,
      cwd: env.settings.cwd,
      approvalPolicy: env.settings.approvalPolicy,
      sandboxPolicy: env.settings.sandboxPolicy,
      signal: this.signal,
      emit: env.emit,
      broker: env.broker,
      abortTurn: (reason) => env.controller.abort(reason),
    };
    // One call at a time, in the model's order: approvals are asked one by one and outputs keep call order.
    for (const call of calls) this.commit([await env.telemetry.span(toolCallSpan({ tool: call.name, callId: call.call_id }), () => dispatchCall(dispatchEnv, tools, call))]);
    return calls;
  }

  /** Calls of this turn that never got an output (interrupted) are answered so the conversation stays valid. */
  private closeDanglingCalls(): void {
    const answered = new Set(this.env.history.filter((i) => i.type === 'function_call_output').map((i) => i.call_id));
    const missing = this.env.history.filter((i): i is FunctionCall => i.type === 'function_call' && !answered.has(i.call_id));
    this.commit(missing.map((c) => ({ type: 'function_call_output', call_id: c.call_id, output: 'aborted: the user interrupted the turn' })));
  }

  async run(input: InputItem[]): Promise<TurnOutcome> {
    const { env } = this;
    const s = env.settings;
    env.emit({ type: 'task_started', turn_id: env.turnId, started_at: Math.floor(Date.now() / 1000), model_context_window: null });
    env.recorder.recordTurnContext({ turn_id: env.turnId, cwd: s.cwd, model: s.model, model_provider: s.provider.id, approval_policy: s.approvalPolicy, sandbox_policy: s.sandboxPolicy });
    this.commit([userItem(input)]);
    const text = input.filter((i) => i.type === 'text').map((i) => (i as { text: string }).text).join('\n');
    const images = input.filter((i) => i.type === 'image').map((i) => (i as { image_url: string }).image_url);
    env.emit({ type: 'user_message', message: text, images: images.length > 0 ? images : null });
    // What the user said is on disk before the model is asked anything.
    await env.recorder.flush();
    try {
      while ((await this.sample()).length > 0) {
        // tool outputs are in the history; ask the model again
      }
      return { kind: 'completed', lastAgentMessage: this.lastAgentMessage };
    } catch (err) {
      if (this.signal.aborted || isSwitchboardError(err, 'turn_aborted')) {
        this.closeDanglingCalls();
        return { kind: 'aborted' };
      }
      if (err instanceof ToolCrashed) this.commit([err.output]);
      this.closeDanglingCalls();
      env.logger.error('turn failed', { turnId: env.turnId, error: errorMessage(err) });
      return { kind: 'failed', message: errorMessage(err) };
    }
  }

  get lastMessage(): string | null {
    return this.lastAgentMessage;
  }
}

/** Run a turn to its end and emit its closing event. Never rejects. */
export async function runTurn(env: TurnEnv, input: InputItem[]): Promise<TurnOutcome> {
  const run = new TurnRun(env);
  const s = env.settings;
  const outcome = await env.telemetry.span(agentTurnSpan({ threadId: env.threadId, turnId: env.turnId, model: s.model, provider: s.provider.id }), async (span) => {
    let ended: TurnOutcome;
    try {
      ended = await run.run(input);
    } catch (err) {
      ended = { kind: 'failed', message: errorMessage(err) };
    }
    span.set('switchboard.turn.outcome', ended.kind);
    if (ended.kind === 'failed') span.fail('turn_failed');
    return ended;
  });
  switch (outcome.kind) {
    case 'completed':
      env.emit({ type: 'task_complete', turn_id: env.turnId, last_agent_message: outcome.lastAgentMessage });
      break;
    case 'aborted':
      env.emit({ type: 'turn_aborted', turn_id: env.turnId, reason: 'interrupted' });
      break;
    case 'failed':
      env.emit({ type: 'error', message: outcome.message });
      env.emit({ type: 'task_complete', turn_id: env.turnId, last_agent_message: run.lastMessage, error: { message: outcome.message } });
      break;
    default:
      assertNever(outcome, 'turn outcome');
  }
  await env.recorder.flush();
  return outcome;
}

