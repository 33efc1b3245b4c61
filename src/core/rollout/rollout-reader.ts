// Loading a thread's rollout from the store and rebuilding its conversation. Damaged lines (a torn
// last line after a crash, or an unreadable one) are skipped with a warning, never fatal.
import { findRolloutFile, type StoredThread, type ThreadStore } from '../../store/index.js';
import { SwitchboardError } from '../../util/index.js';
import type { ResponseItem } from '../model/model-types.js';
import { RolloutLineSchema, type SessionMeta, type TurnContext } from './rollout-schema.js';

export { findRolloutFile };

export interface LoadedRollout {
  /** Where the records are: the file's path, or the store's location of the thread. */
  path: string;
  meta: SessionMeta;
  /** The conversation, in order. */
  items: ResponseItem[];
  lastTurnContext: TurnContext | null;
  warnings: string[];
  /** Byte length of the intact part when the file ends in a torn line, else null. */
  validBytes: number | null;
  /** A turn that started and never ended (its process died mid-turn), or null. */
  unfinishedTurn: string | null;
}

export function threadNotFound(threadId: string, where: string): SwitchboardError {
  return new SwitchboardError('thread_not_found', `no saved thread ${threadId} ${where}; check the id (it is printed in session_configured as session_id)`);
}

/** Parse a rollout file's text; exported for tests of damaged files. */
export function parseRollout(file: string, text: string): LoadedRollout {
  const warnings: string[] = [];
  const items: ResponseItem[] = [];
  let meta: SessionMeta | null = null;
  let lastTurnContext: TurnContext | null = null;
  let validBytes: number | null = null;
  let unfinishedTurn: string | null = null;
  const lines = text.split('\n');
  let offset = 0;
  lines.forEach((line, index) => {
    const start = offset;
    offset += Buffer.byteLength(line, 'utf8') + 1;
    if (line.trim() === '') return;
    const isTornTail = index === lines.length - 1; // no newline after it: the write never finished
    let parsed: ReturnType<typeof RolloutLineSchema.safeParse> | null;
    try {
      parsed = RolloutLineSchema.safeParse(JSON.parse(line));
    } catch {
      parsed = null;
    }
    if (parsed === null || !parsed.success) {
      if (isTornTail) {
        validBytes = start;
        warnings.push(`skipped a torn last line in ${file} (the process probably stopped while writing it)`);
      } else {
        warnings.push(`skipped unreadable line ${index + 1} in ${file}`);
      }
      return;
    }
    const entry = parsed.data;
    switch (entry.type) {
      case 'session_meta':
        meta ??= entry.payload;
        break;
      case 'response_item':
        items.push(entry.payload);
        break;
      case 'turn_context':
        lastTurnContext = entry.payload;
        break;
      case 'event_msg': {
        const turnId = typeof entry.payload.turn_id === 'string' ? entry.payload.turn_id : null;
        if (entry.payload.type === 'task_started') unfinishedTurn = turnId;
        else if ((entry.payload.type === 'task_complete' || entry.payload.type === 'turn_aborted') && turnId === unfinishedTurn) unfinishedTurn = null;
        break;
      }
      default: {
        const never: never = entry;
        throw new SwitchboardError('internal', `unexpected rollout line ${JSON.stringify(never)}`);
      }
    }
  });
  if (meta === null) throw new SwitchboardError('rollout_invalid', `${file} has no session metadata line; it is not a switchboard rollout`);
  return { path: file, meta, items: closeDanglingCalls(items), lastTurnContext, warnings, validBytes, unfinishedTurn };
}

/**
 * A killed turn can leave function calls without outputs; the API rejects such a conversation,
 * so each gets an output saying it never finished.
 */
export function closeDanglingCalls(items: ResponseItem[]): ResponseItem[] {
  const answered = new Set(items.filter((i) => i.type === 'function_call_output').map((i) => i.call_id));
  const out: ResponseItem[] = [];
  for (const item of items) {
    out.push(item);
    if (item.type === 'function_call' && !answered.has(item.call_id)) {
      out.push({ type: 'function_call_output', call_id: item.call_id, output: 'aborted: the session ended before this call finished' });
    }
  }
  return out;
}

/** A thread's rollout from a store (the file store under `home` when given a path), with its stored form. */
export async function loadStoredRollout(store: ThreadStore, threadId: string): Promise<LoadedRollout & { stored: StoredThread }> {
  const stored = await store.load(threadId);
  if (stored === null) throw threadNotFound(threadId, store.describe());
  return { ...parseRollout(stored.location, stored.text), stored };
}
