// tasks/* from the host's one table, in either revision: 2025-11-25's tasks/get, tasks/result,
// tasks/list and tasks/cancel (tasks of the session), and the 2026-07-28 tasks extension's tasks/get
// (a DetailedTask: the outcome inlined once terminal, open questions as `inputRequests`),
// tasks/update and tasks/cancel (tasks of the caller, for requests declaring the extension).
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { extensionRequired, TaskIdParams, UpdateParams, declaresTasks } from '../flows/tasks-extension.js';
import type { HostTask, HostTasks } from './host-tasks.js';
import type { Handler, Req } from './product.js';
import { isTerminal, type TaskState } from './task-work.js';

/** A work reporting input_required: how long tasks/get waits for its question to arrive. */
const QUESTIONS_WAIT_MS = 1_000;
const ListParams = z.looseObject({ cursor: z.string().optional() });

/** What a 2025 session's task methods answer, and the capability that declares them. */
export const LEGACY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

export function legacyTaskHandlers(tasks: HostTasks): Record<string, Handler> {
  const id = (params: Record<string, unknown>) => params.taskId;
  return {
    'tasks/get': { era: 'legacy', params: TaskIdParams, handle: (params, req) => tasks.state(tasks.owned(req, id(params)), req.signal) },
    'tasks/result': { era: 'legacy', params: TaskIdParams, handle: (params, req) => tasks.result(tasks.owned(req, id(params)), req) },
    'tasks/cancel': {
      era: 'legacy',
      params: TaskIdParams,
      async handle(params, req) {
        const task = tasks.owned(req, id(params));
        if (isTerminal(task.status)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task in terminal status: ${task.status}`);
        await task.work.cancel(req.signal);
        return tasks.state(task, req.signal);
      },
    },
    // The session's tasks, each as its work reports it now; one its work no longer knows is forgotten.
    'tasks/list': {
      era: 'legacy',
      params: ListParams,
      async handle(_params, req) {
        const states = await Promise.all(tasks.ownedBy(req).map((task) => tasks.state(task, req.signal).catch(() => undefined)));
        return { tasks: states.filter((s) => s !== undefined) };
      },
    },
  };
}

export function modernTaskHandlers(tasks: HostTasks): Record<string, Handler> {
  /** The task a tasks/* request names, for its caller; -32021 when the request does not declare the extension. */
  const owned = (params: Record<string, unknown>, req: Req, method: string): HostTask => {
    if (!declaresTasks(req.clientCapabilities)) throw extensionRequired(method);
    return tasks.owned(req, params.taskId);
  };
  return {
    'tasks/get': {
      era: 'modern',
      params: TaskIdParams,
      async handle(params, req) {
        const task = owned(params, req, 'tasks/get');
        const state = await tasks.state(task, req.signal);
        const fields = tasks.modernFields(task, state);
        if (isTerminal(state.status)) return { ...fields, ...(await outcome(task, state, req.signal)) };
        // Its question is on its way (the work marks the task before the question arrives): wait for it, not for a poll.
        if (state.status === 'input_required') await task.questions.asked(QUESTIONS_WAIT_MS, req.signal);
        if (task.questions.size === 0) return fields;
        return { ...fields, status: 'input_required', inputRequests: task.questions.inputRequests() };
      },
    },
    'tasks/update': {
      era: 'modern',
      params: UpdateParams,
      handle(params, req) {
        const task = owned(params, req, 'tasks/update');
        task.questions.answer(req.inputResponses ?? (params.inputResponses as Record<string, unknown> | undefined) ?? {});
        return {};
      },
    },
    // An ack only: the status is read with tasks/get. Cancelling an ended task is no error.
    'tasks/cancel': {
      era: 'modern',
      params: TaskIdParams,
      async handle(params, req) {
        const task = owned(params, req, 'tasks/cancel');
        if (!isTerminal(task.status)) {
          try {
            await task.work.cancel(req.signal);
          } catch (err) {
            if (!isTerminal((await tasks.state(task, req.signal)).status)) throw err;
          }
        }
        task.questions.rejectAll('the task was cancelled');
        return {};
      },
    },
  };
}

/** A terminal task's outcome as a DetailedTask inlines it: the result once completed, the error once failed. */
async function outcome(task: HostTask, state: TaskState, signal: AbortSignal): Promise<Record<string, unknown>> {
  if (state.status === 'cancelled') return {};
  let result: Record<string, unknown>;
  try {
    result = await task.work.result(signal);
  } catch (err) {
    const e = err instanceof ProtocolError ? err : new ProtocolError(ProtocolErrorCode.InternalError, err instanceof Error ? err.message : String(err));
    return { status: 'failed', error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } };
  }
  if (state.status === 'completed') return { result };
  // Failed with a result (a tool's error stored as the task's outcome): its text is the error.
  const content = (result.content ?? []) as { type?: string; text?: string }[];
  const text = content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  return { error: { code: ProtocolErrorCode.InternalError, message: text || (typeof state.statusMessage === 'string' ? state.statusMessage : 'the task failed') } };
}
