// The Chat Completions wire (wire_api = "chat"): conversation items to messages, and a decoder that
// gathers streamed content, reasoning and tool-call fragments into output items at finish_reason.
import type OpenAI from 'openai';
import type { TokenUsage } from '../../protocol/index.js';
import { ModelError } from './model-error.js';
import { messageText, type ModelRequest, type ResponseEvent, type ResponseItem } from './model-types.js';
import type { WireDecoder } from './wire-decoder.js';

type Raw = Record<string, unknown>;
type ChatMessage = Record<string, unknown>;

function outputText(output: Extract<ResponseItem, { type: 'function_call_output' }>['output']): string {
  if (typeof output === 'string') return output;
  return output.map((o) => (o.type === 'input_text' ? o.text : '<image omitted: the chat wire API carries text only>')).join('\n');
}

export function chatMessages(request: ModelRequest): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: request.instructions }];
  // Consecutive function calls belong to one assistant message, as the API expects.
  let pendingCalls: ChatMessage | null = null;
  for (const item of request.input) {
    if (item.type === 'function_call') {
      const call = { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } };
      if (pendingCalls) (pendingCalls.tool_calls as unknown[]).push(call);
      else {
        const last = messages[messages.length - 1];
        if (last && last.role === 'assistant' && !last.tool_calls) {
          last.tool_calls = [call];
          pendingCalls = last;
        } else {
          pendingCalls = { role: 'assistant', content: null, tool_calls: [call] };
          messages.push(pendingCalls);
        }
      }
      continue;
    }
    pendingCalls = null;
    switch (item.type) {
      case 'message': {
        // Many OpenAI-compatible servers know no "developer" role.
        const role = item.role === 'developer' ? 'system' : item.role;
        const images = item.content.filter((c) => c.type === 'input_image');
        if (images.length > 0 && role === 'user') {
          messages.push({
            role,
            content: item.content.map((c) => (c.type === 'input_image' ? { type: 'image_url', image_url: { url: c.image_url } } : { type: 'text', text: c.text })),
          });
        } else messages.push({ role, content: messageText(item) });
        break;
      }
      case 'function_call_output':
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: outputText(item.output) });
        break;
      case 'reasoning':
        break;
      default: {
        const never: never = item;
        throw new ModelError('internal', `unexpected item ${JSON.stringify(never)}`, { retry: null });
      }
    }
  }
  return messages;
}

export function chatBody(request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: chatMessages(request),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
    body.tool_choice = 'auto';
  }
  return body;
}

export async function openChatStream(client: OpenAI, request: ModelRequest, signal: AbortSignal): Promise<AsyncIterable<unknown>> {
  const body = chatBody(request) as unknown as Parameters<OpenAI['chat']['completions']['create']>[0];
  return (await client.chat.completions.create(body, { signal })) as unknown as AsyncIterable<unknown>;
}

function usageFromChat(raw: unknown): TokenUsage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const u = raw as Raw;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    input_tokens: num(u.prompt_tokens),
    cached_input_tokens: num((u.prompt_tokens_details as Raw | undefined)?.cached_tokens),
    output_tokens: num(u.completion_tokens),
    reasoning_output_tokens: num((u.completion_tokens_details as Raw | undefined)?.reasoning_tokens),
    total_tokens: num(u.total_tokens) || num(u.prompt_tokens) + num(u.completion_tokens),
  };
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

export class ChatDecoder implements WireDecoder {
  private text = '';
  private reasoning = '';
  private readonly calls = new Map<number, PartialCall>();
  private finished = false;
  private responseId: string | null = null;
  private usage: TokenUsage | null = null;
  private created = false;

  get isComplete(): boolean {
    return this.finished;
  }

  push(value: unknown): ResponseEvent[] {
    if (typeof value !== 'object' || value === null) return [];
    const chunk = value as Raw;
    const out: ResponseEvent[] = [];
    if (!this.created) {
      this.created = true;
      this.responseId = typeof chunk.id === 'string' ? chunk.id : null;
      out.push({ type: 'created', responseId: this.responseId });
    }
    if (chunk.usage) this.usage = usageFromChat(chunk.usage);
    const choices = Array.isArray(chunk.choices) ? (chunk.choices as Raw[]) : [];
    for (const choice of choices) {
      const delta = (choice.delta ?? {}) as Raw;
      const reasoning = typeof delta.reasoning === 'string' ? delta.reasoning : typeof delta.reasoning_content === 'string' ? delta.reasoning_content : '';
      if (reasoning) {
        this.reasoning += reasoning;
        out.push({ type: 'reasoning_delta', delta: reasoning });
      }
      if (typeof delta.content === 'string' && delta.content !== '') {
        this.text += delta.content;
        out.push({ type: 'output_text_delta', delta: delta.content });
      }
      for (const raw of Array.isArray(delta.tool_calls) ? (delta.tool_calls as Raw[]) : []) {
        const index = typeof raw.index === 'number' ? raw.index : this.calls.size;
        const fn = (raw.function ?? {}) as Raw;
        const call = this.calls.get(index) ?? { id: '', name: '', arguments: '' };
        if (typeof raw.id === 'string' && raw.id) call.id = raw.id;
        if (typeof fn.name === 'string') call.name += fn.name;
        if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
        this.calls.set(index, call);
      }
      if (typeof choice.finish_reason === 'string' && choice.finish_reason) this.finished = true;
    }
    return out;
  }

  end(): ResponseEvent[] {
    if (!this.finished) throw new ModelError('stream_closed', 'stream closed before finish_reason', { retry: 'stream' });
    const out: ResponseEvent[] = [];
    if (this.reasoning) out.push({ type: 'output_item_done', item: { type: 'reasoning', summary: [this.reasoning] } });
    if (this.text) out.push({ type: 'output_item_done', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: this.text }] } });
    for (const [index, call] of [...this.calls.entries()].sort(([a], [b]) => a - b)) {
      out.push({
        type: 'output_item_done',
        item: { type: 'function_call', call_id: call.id || `call_${index}`, name: call.name, arguments: call.arguments },
      });
    }
    out.push({ type: 'completed', responseId: this.responseId, usage: this.usage });
    return out;
  }
}
