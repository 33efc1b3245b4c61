// The per-attempt decoder contract shared by both wire APIs, and parsing of output items.
import type { ResponseEvent, ResponseItem } from './model-types.js';

/** Stateful for one attempt: push each streamed JSON value, then end() when the stream closes. */
export interface WireDecoder {
  /** True once the stream signalled a complete response. */
  readonly isComplete: boolean;
  /** Events for one streamed value; throws ModelError on a failure event. */
  push(value: unknown): ResponseEvent[];
  /** Events still pending at stream end; throws a retryable ModelError when the stream was cut short. */
  end(): ResponseEvent[];
}

type Raw = Record<string, unknown>;

/** A Responses API output item as a conversation item; null for kinds the agent does not use. */
export function responseItemFromWire(raw: unknown): ResponseItem | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const item = raw as Raw;
  switch (item.type) {
    case 'message': {
      const parts = Array.isArray(item.content) ? (item.content as Raw[]) : [];
      const text = parts
        .filter((p) => (p.type === 'output_text' || p.type === 'text') && typeof p.text === 'string')
        .map((p) => p.text as string)
        .join('');
      return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] };
    }
    case 'function_call':
      if (typeof item.name !== 'string') return null;
      return {
        type: 'function_call',
        call_id: typeof item.call_id === 'string' ? item.call_id : String(item.id ?? ''),
        name: item.name,
        arguments: typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}),
      };
    case 'reasoning': {
      const summary = Array.isArray(item.summary) ? (item.summary as Raw[]) : [];
      return { type: 'reasoning', summary: summary.filter((s) => typeof s.text === 'string').map((s) => s.text as string) };
    }
    default:
      return null;
  }
}
