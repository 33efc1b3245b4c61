// The OpenAI Responses API wire: request body from a ModelRequest, and a per-attempt decoder that
// turns streamed SSE events (response.output_text.delta, response.output_item.done, ...) into ResponseEvents.
import type OpenAI from 'openai';
import type { TokenUsage } from '../../protocol/index.js';
import { ModelError } from './model-error.js';
import type { ModelRequest, ResponseEvent, ResponseItem } from './model-types.js';
import { responseItemFromWire, type WireDecoder } from './wire-decoder.js';

type Raw = Record<string, unknown>;

export function responsesBody(request: ModelRequest): Record<string, unknown> {
  return {
    model: request.model,
    instructions: request.instructions,
    input: request.input.filter((item) => item.type !== 'reasoning'),
    tools: request.tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false })),
    tool_choice: 'auto',
    // Several calls per response are welcome; the turn loop runs them one after another, in order.
    parallel_tool_calls: true,
    store: false,
    stream: true,
    prompt_cache_key: request.threadId,
  };
}

export async function openResponsesStream(client: OpenAI, request: ModelRequest, signal: AbortSignal): Promise<AsyncIterable<unknown>> {
  const body = responsesBody(request) as unknown as Parameters<OpenAI['responses']['create']>[0];
  return (await client.responses.create(body, { signal })) as unknown as AsyncIterable<unknown>;
}

export function usageFromResponses(raw: unknown): TokenUsage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const u = raw as Raw;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const input = num(u.input_tokens);
  const output = num(u.output_tokens);
  return {
    input_tokens: input,
    cached_input_tokens: num((u.input_tokens_details as Raw | undefined)?.cached_tokens),
    output_tokens: output,
    reasoning_output_tokens: num((u.output_tokens_details as Raw | undefined)?.reasoning_tokens),
    total_tokens: typeof u.total_tokens === 'number' ? u.total_tokens : input + output,
  };
}

/** response.failed codes that no retry can fix (Codex's classification); others are retried. */
const FATAL_FAILURE_CODES = new Set(['context_length_exceeded', 'insufficient_quota', 'usage_not_included', 'invalid_prompt']);

function failure(response: Raw | undefined, fallback: string): ModelError {
  const error = (response?.error ?? {}) as Raw;
  const code = typeof error.code === 'string' ? error.code : 'response_failed';
  const message = typeof error.message === 'string' ? error.message : fallback;
  if (code === 'insufficient_quota') {
    return new ModelError('quota_exceeded', `Quota exceeded. Check your plan and billing details. (${message})`, { retry: null });
  }
  return new ModelError(code, message, { retry: FATAL_FAILURE_CODES.has(code) ? null : 'stream' });
}

export class ResponsesDecoder implements WireDecoder {
  private completed = false;

  get isComplete(): boolean {
    return this.completed;
  }

  push(value: unknown): ResponseEvent[] {
    if (typeof value !== 'object' || value === null) return [];
    const ev = value as Raw;
    const response = ev.response as Raw | undefined;
    switch (ev.type) {
      case 'response.created':
        return [{ type: 'created', responseId: typeof response?.id === 'string' ? response.id : null }];
      case 'response.output_text.delta':
        return typeof ev.delta === 'string' ? [{ type: 'output_text_delta', delta: ev.delta }] : [];
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return typeof ev.delta === 'string' ? [{ type: 'reasoning_delta', delta: ev.delta }] : [];
      case 'response.output_item.done': {
        const item: ResponseItem | null = responseItemFromWire(ev.item);
        return item ? [{ type: 'output_item_done', item }] : [];
      }
      case 'response.completed':
        this.completed = true;
        return [{ type: 'completed', responseId: typeof response?.id === 'string' ? response.id : null, usage: usageFromResponses(response?.usage) }];
      case 'response.failed':
        throw failure(response, 'response.failed event received');
      case 'response.incomplete': {
        const reason = ((response?.incomplete_details ?? {}) as Raw).reason;
        throw new ModelError('response_incomplete', `Incomplete response returned, reason: ${typeof reason === 'string' ? reason : 'unknown'}`, { retry: 'stream' });
      }
      case 'error': {
        const code = typeof ev.code === 'string' ? ev.code : 'stream_error';
        return failureFromErrorEvent(code, typeof ev.message === 'string' ? ev.message : 'error event received');
      }
      default:
        return [];
    }
  }

  end(): ResponseEvent[] {
    if (!this.completed) throw new ModelError('stream_closed', 'stream closed before response.completed', { retry: 'stream' });
    return [];
  }
}

function failureFromErrorEvent(code: string, message: string): never {
  throw new ModelError(code, message, { retry: FATAL_FAILURE_CODES.has(code) ? null : 'stream' });
}
