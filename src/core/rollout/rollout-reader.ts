// Finding a thread's rollout file and rebuilding its conversation. Damaged lines (a torn last line
// after a crash, or an unreadable one) are skipped with a warning, never fatal.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SwitchboardError } from '../../util/index.js';
import type { ResponseItem } from '../model/model-types.js';
import { RolloutLineSchema, sessionsRoot, type SessionMeta, type TurnContext } from './rollout-schema.js';

export interface LoadedRollout {
  path: string;
  meta: SessionMeta;
  /** The conversation, in order. */
  items: ResponseItem[];
  lastTurnContext: TurnContext | null;
  warnings: string[];
  /** Byte length of the intact part when the file ends in a torn line, else null. */
  validBytes: number | null;
}

const THREAD_ID = /^[A-Za-z0-9-]{1,64}$/;

async function entriesDesc(dir: string, pattern: RegExp): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((n) => pattern.test(n)).sort().reverse();
  } catch {
    return [];
  }
}

/** The rollout file of a thread, newest day first; null when none exists. */
export async function findRolloutFile(home: string, threadId: string): Promise<string | null> {
  if (!THREAD_ID.test(threadId)) return null;
  const root = sessionsRoot(home);
  const suffix = `-${threadId}.jsonl`;
  for (const y of await entriesDesc(root, /^\d{4}$/)) {
    for (const m of await entriesDesc(path.join(root, y), /^\d{2}$/)) {
      for (const d of await entriesDesc(path.join(root, y, m), /^\d{2}$/)) {
        const dir = path.join(root, y, m, d);
        const hit = (await entriesDesc(dir, /^rollout-.*\.jsonl$/)).find((n) => n.endsWith(suffix));
        if (hit) return path.join(dir, hit);
      }
    }
  }
  return null;
}

export function threadNotFound(threadId: string, home: string): SwitchboardError {
  return new SwitchboardError('thread_not_found', `no saved thread ${threadId} under ${sessionsRoot(home)}; check the id (it is printed in session_configured as session_id)`);
}

/** Parse a rollout file's text; exported for tests of damaged files. */
export function parseRollout(file: string, text: string): LoadedRollout {
  const warnings: string[] = [];
  const items: ResponseItem[] = [];
  let meta: SessionMeta | null = null;
  let lastTurnContext: TurnContext | null = null;
  let validBytes: number | null = null;
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
      case 'event_msg':
        break;
      default: {
        const never: never = entry;
        throw new SwitchboardError('internal', `unexpected rollout line ${JSON.stringify(never)}`);
      }
    }
  });
  if (meta === null) throw new SwitchboardError('rollout_invalid', `${file} has no session metadata line; it is not a switchboard rollout`);
  return { path: file, meta, items: closeDanglingCalls(items), lastTurnContext, warnings, validBytes };
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

export async function loadRollout(home: string, threadId: string): Promise<LoadedRollout> {
  const file = await findRolloutFile(home, threadId);
  if (file === null) throw threadNotFound(threadId, home);
  return parseRollout(file, await readFile(file, 'utf8'));
}
