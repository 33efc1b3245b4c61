// What the turn loop sends to a model and what comes back: conversation items (the Responses API's
// input item shapes, also persisted in rollouts), tool specs, and the streamed ResponseEvent union.
import { z } from 'zod';
import { TokenUsageSchema, type TokenUsage } from '../../protocol/index.js';

export const ContentItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('input_text'), text: z.string() }),
  z.object({ type: z.literal('input_image'), image_url: z.string() }),
  z.object({ type: z.literal('output_text'), text: z.string() }),
]);
export type ContentItem = z.infer<typeof ContentItemSchema>;

export const FunctionOutputItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('input_text'), text: z.string() }),
  z.object({ type: z.literal('input_image'), image_url: z.string() }),
]);

/** One item of the conversation, in the Responses API's input-item shape. */
export const ResponseItemSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message'),
    role: z.enum(['user', 'assistant', 'developer', 'system']),
    content: z.array(ContentItemSchema),
  }),
  z.object({ type: z.literal('function_call'), call_id: z.string(), name: z.string(), arguments: z.string() }),
  z.object({
    type: z.literal('function_call_output'),
    call_id: z.string(),
    output: z.union([z.string(), z.array(FunctionOutputItemSchema)]),
  }),
  /** Reasoning summaries are shown and persisted but not sent back (they are not replayable without encrypted content). */
  z.object({ type: z.literal('reasoning'), summary: z.array(z.string()) }),
]);
/** One item of the conversation, in the Responses API's input-item shape (also what rollouts store). */
export type ResponseItem = z.infer<typeof ResponseItemSchema>;

/** A function tool as offered to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One request to the model: instructions, the conversation so far, and the tools on offer. */
export interface ModelRequest {
  model: string;
  /** System / base instructions. */
  instructions: string;
  /** The conversation, oldest first (developer context first). */
  input: ResponseItem[];
  tools: ToolSpec[];
  /** Used as prompt cache key and for log correlation. */
  threadId: string;
}

/** What a ModelClient streams back for one request. */
export type ResponseEvent =
  | { type: 'created'; responseId: string | null }
  | { type: 'output_text_delta'; delta: string }
  | { type: 'reasoning_delta'; delta: string }
  | { type: 'output_item_done'; item: ResponseItem }
  | { type: 'completed'; responseId: string | null; usage: TokenUsage | null }
  /**
   * The attempt failed in a retryable way and will be re-sent after `delayMs`: everything the
   * failed attempt produced must be discarded. `budget` tells which retry limit was charged.
   */
  | { type: 'retrying'; attempt: number; maxAttempts: number; delayMs: number; message: string; budget: 'request' | 'stream' };

/** A model endpoint. The iterator ends after `completed`; hard failures are thrown as ModelError. */
export interface ModelClient {
  stream(request: ModelRequest, options: { signal: AbortSignal }): AsyncIterable<ResponseEvent>;
}

export const EMPTY_USAGE: TokenUsage = Object.freeze({
  input_tokens: 0,
  cached_input_tokens: 0,
  output_tokens: 0,
  reasoning_output_tokens: 0,
  total_tokens: 0,
});

export { TokenUsageSchema };
export type { TokenUsage };

/** Text of a message item's content, joined. */
export function messageText(item: ResponseItem): string {
  if (item.type !== 'message') return '';
  return item.content
    .filter((c): c is Extract<ContentItem, { text: string }> => c.type !== 'input_image')
    .map((c) => c.text)
    .join('');
}
