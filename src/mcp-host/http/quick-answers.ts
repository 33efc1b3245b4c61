// A 2025 session's answer to one request, sent as one JSON body when it is quick. The SDK's session
// transport answers every request with an SSE stream: the head, a priming event (an event id to
// resume from), then the answer, in three writes, which the client must take apart with its SSE
// parser. The 2025-11-25 revision lets a server answer with `application/json` instead, and the
// SDK's 2026-07-28 entry does so (its `auto` response mode) unless the work sends something before
// its result. This is the same rule for 2025 sessions, taken from the stream the SDK built:
//   - the answer came within `waitMs` and nothing came before it but the priming event: one JSON
//     body, with the session's id (a call that quick has nothing to resume, so the events the SDK
//     kept for it are forgotten when the store allows it);
//   - anything else (a notification, a request to the client, a keep-alive, the stream ended
//     without the answer, `waitMs` passed, or more than JSON_AT_MOST_BYTES held): the SSE stream as
//     the SDK made it, every byte held so far first, so a slow call keeps its priming event and can
//     still be resumed.
// Anything this does not recognise goes out as the SSE stream: the fallback is today's answer.
import { markSseChunked } from './sse-chunked.js';

/** How long a request's answer is held back hoping to send it as JSON; then its SSE stream starts. */
export const SSE_AFTER_MS = 200;

/**
 * The most bytes of a stream read back to send its answer as JSON. Reading an answer back costs a
 * decode, a scan and a parse of every byte (about 9 ms for a 1 MiB answer), where streaming it costs
 * none; the client's saving is per answer, not per byte, so a large answer streams.
 */
export const JSON_AT_MOST_BYTES = 64 * 1024;

type JsonRpcId = string | number;
type Read = ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>;

/** The id of a POST body that is one JSON-RPC request (what gets one answer), else undefined. */
export function loneRequestId(body: unknown): JsonRpcId | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, id } = body as { method?: unknown; id?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
}

/**
 * `response` (the SDK's answer to a request whose id is `id`) as one JSON body when it qualifies
 * (above); otherwise an SSE response with the same status, headers and bytes.
 */
export async function jsonWhenQuick(response: Response, id: JsonRpcId, options: { waitMs?: number; forget?: (eventIds: string[]) => void } = {}): Promise<Response> {
  if (!isSse(response) || response.body === null) return response;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  const seen = new SeenEvents(id);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, options.waitMs ?? SSE_AFTER_MS, null);
  });
  try {
    for (;;) {
      const read = reader.read();
      const next = await Promise.race([read, late]);
      if (next === null) return streamed(response, held, reader, read);
      if (next.done) {
        if (seen.answer === undefined || !seen.complete) return streamed(response, held, reader);
        options.forget?.(seen.eventIds);
        return asJson(response, seen.answer);
      }
      held.push(next.value);
      heldBytes += next.value.byteLength;
      if (heldBytes > JSON_AT_MOST_BYTES || !seen.add(decoder.decode(next.value, { stream: true }))) return streamed(response, held, reader);
    }
  } finally {
    clearTimeout(timer);
  }
}

function isSse(response: Response): boolean {
  return response.status === 200 && response.headers.get('content-type')?.startsWith('text/event-stream') === true;
}

/**
 * The events of the stream so far, as the rule above reads them: `add` is false once something
 * came that the client must see as it happens (or that this does not recognise).
 */
class SeenEvents {
  private text = '';
  /** The answer's JSON text, once its event came. */
  answer: string | undefined;
  /** The ids of the events so far (the SDK keeps them for resumption). */
  readonly eventIds: string[] = [];

  constructor(private readonly id: JsonRpcId) {}

  /** True when every event so far is whole and either the priming event or the answer. */
  get complete(): boolean {
    return this.text === '';
  }

  add(chunk: string): boolean {
    this.text += chunk;
    let end: number;
    while ((end = this.text.indexOf('\n\n')) !== -1) {
      const block = this.text.slice(0, end);
      this.text = this.text.slice(end + 2);
      if (!this.take(block)) return false;
    }
    return true;
  }

  private take(block: string): boolean {
    if (this.answer !== undefined) return false; // something after the answer
    let data: string | undefined;
    let event = 'message';
    for (const line of block.split('\n')) {
      if (line.startsWith('data:')) data = (data === undefined ? '' : `${data}\n`) + field(line, 5);
      else if (line.startsWith('event:')) event = field(line, 6);
      else if (line.startsWith('id:')) this.eventIds.push(field(line, 3));
      else if (!line.startsWith('retry:')) return false; // a comment (keep-alive) or a field this does not know
    }
    if (data === undefined || data === '') return true; // the priming event
    if (event !== 'message' || !isAnswerTo(data, this.id)) return false;
    this.answer = data;
    return true;
  }
}

/** An SSE field's value: after the name and its colon, without the one space that may follow. */
function field(line: string, nameLength: number): string {
  return line.charCodeAt(nameLength) === 32 ? line.slice(nameLength + 1) : line.slice(nameLength);
}

function isAnswerTo(data: string, id: JsonRpcId): boolean {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return false;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const m = message as Record<string, unknown>;
  return m.id === id && !('method' in m) && ('result' in m || 'error' in m);
}

/** The answer as one JSON body, with the SSE response's session id. */
function asJson(response: Response, answer: string): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const session = response.headers.get('mcp-session-id');
  if (session !== null) headers['mcp-session-id'] = session;
  return new Response(answer, { status: 200, headers });
}

/** The SSE response after all: the bytes held, then the rest of the stream (`pending`: a read already asked for). */
function streamed(response: Response, held: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>, pending?: Read): Response {
  let next = pending;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of held) controller.enqueue(chunk);
    },
    async pull(controller) {
      const read = await (next ?? reader.read());
      next = undefined;
      if (read.done) controller.close();
      else controller.enqueue(read.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return markSseChunked(new Response(body, { status: response.status, headers: response.headers }));
}
