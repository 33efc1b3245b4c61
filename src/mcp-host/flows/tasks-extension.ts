// The tasks extension's (SEP-2663) vocabulary shared by every task table serving 2026-07-28 clients
// (the gateway's and the agent server's): its name, its errors, its request params, and a task's
// open questions (read as `inputRequests`, answered by tasks/update), bounded in number.
import { randomBytes } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, type ClientCapabilities, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TASKS_EXTENSION } from '../../protocol/values.js';
import { callerOf } from '../access/caller.js';

export const TaskIdParams = z.looseObject({ taskId: z.string() });
export const UpdateParams = z.looseObject({ taskId: z.string(), inputResponses: z.record(z.string(), z.unknown()).optional() });
/**
 * Questions one task may have open at once: each holds a waiting upstream request or a paused
 * turn, and is kept until answered, so a server asking without end would otherwise grow it without end.
 */
export const MAX_OPEN_QUESTIONS = 64;

/** The capabilities a 2026-07-28 request declares in its own `_meta` (one server may serve several requests). */
export function requestCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  return (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}

/**
 * Whose task a request's is: the authenticated caller (`issuer#subject` with [server_auth]), else one
 * identity for every caller of this server, whose tasks only their unguessable ids then keep apart.
 */
export function taskOwner(ctx: ServerContext): string {
  return callerOf(ctx.http?.authInfo)?.key ?? 'anonymous';
}

/** Whether a 2026-07-28 request's own capabilities declare the tasks extension. */
export function declaresTasks(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && extensions[TASKS_EXTENSION] !== undefined;
}



/** A -32021 naming the extension: `what` needs it and the request's client did not declare it. */
export function extensionRequired(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } as ClientCapabilities },
    `${what} needs the ${TASKS_EXTENSION} extension, which this request's client capabilities do not declare`,
  );
}

/** The answer for an id the caller has no task under (never existed, forgotten, or another caller's: one answer for all). */
export function taskNotFound(id: unknown): ProtocolError {
  const text = String(id);
  // The id is the caller's own input: echoed for recognition, but not at any length.
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`);
}

export interface InputQuestion {
  method: string;
  params?: Record<string, unknown>;
}

interface Open {
  request: InputQuestion;
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

/** A task's open questions, each under a key of its own until answered, withdrawn or the task ends. */
export class TaskQuestions {
  private readonly open = new Map<string, Open>();
  /** Those waiting for a question to be asked (`asked`). */
  private readonly waiting = new Set<() => void>();

  constructor(private readonly prefix: string) {}

  get size(): number {
    return this.open.size;
  }

  /** The `inputRequests` of a DetailedTask. */
  inputRequests(): Record<string, InputQuestion> {
    return Object.fromEntries([...this.open].map(([k, q]) => [k, q.request]));
  }

  /** Waits for the client's answer to `request`; rejected when `signal` withdraws it or the task ends. */
  ask(request: InputQuestion, signal: AbortSignal, key = `${this.prefix}-${randomBytes(6).toString('base64url')}`): Promise<unknown> {
    if (this.open.size >= MAX_OPEN_QUESTIONS) return Promise.reject(new Error(`the task already waits for ${MAX_OPEN_QUESTIONS} answers; ${request.method} refused`));
    if (this.open.has(key)) return Promise.reject(new Error(`the task already waits for an answer under the key '${key}'`));
    if (signal.aborted) return Promise.reject(new Error(`${request.method} was withdrawn`));
    return new Promise((resolve, reject) => {
      const withdrawn = () => {
        this.open.delete(key);
        reject(new Error(`${request.method} was withdrawn`));
      };
      signal.addEventListener('abort', withdrawn, { once: true });
      // The listener goes with the question: a long-lived signal must not collect one per answer.
      const settle = () => signal.removeEventListener('abort', withdrawn);
      this.open.set(key, {
        request,
        resolve: (answer) => (settle(), resolve(answer)),
        reject: (error) => (settle(), reject(error)),
      });
      this.wake();
    });
  }

  /** Settles once a question is open, `ms` passed, `signal` aborted or `wake` was called (never rejects). */
  asked(ms: number, signal: AbortSignal): Promise<void> {
    if (this.open.size > 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.waiting.add(done);
    });
  }

  /** Ends every `asked` wait: no question will come (the task's outcome arrived). */
  wake(): void {
    for (const done of [...this.waiting]) done();
  }

  /** The client's answers, each to the question of its key; unknown keys are ignored. */
  answer(responses: Record<string, unknown>): void {
    for (const [k, q] of this.open) {
      if (responses[k] === undefined) continue;
      this.open.delete(k);
      q.resolve(responses[k]);
    }
  }

  /** Every open question rejected (the task ended, was cancelled or forgotten). */
  rejectAll(why: string): void {
    const open = [...this.open.values()];
    this.open.clear();
    for (const q of open) q.reject(new Error(why));
  }
}
