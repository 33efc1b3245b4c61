// The tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`): a server may answer a tools/call
// with a task, which is polled with tasks/get until it ends and cancelled with tasks/cancel. The SDK
// declares the vocabulary but has no runtime for it, so a created task is carried through its result
// decoding under a private `_meta` key (inbound-messages.ts) and driven from here, loaded on a call's first task.
import type { CallToolResult, Client, Progress } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { sleep } from '../util/index.js';
import { McpClientError } from './errors.js';
import { CREATED_TASK_META_KEY } from './inbound-messages.js';

/** Used when the server gives no hint; a hint below the floor is raised to it. */
export const DEFAULT_TASK_POLL_MS = 1_000;
export const MIN_TASK_POLL_MS = 50;
const CANCEL_TIMEOUT_MS = 5_000;

/**
 * The schemas are built on first use, not at load: building zod schemas allocates more than the rest
 * of this module, in every client process, and most servers never create a task.
 */
function buildSchemas() {
  const task = z.looseObject({
    taskId: z.string(),
    status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
    statusMessage: z.string().optional(),
    pollIntervalMs: z.number().optional(),
  });
  const detailed = task.extend({
    result: z.looseObject({}).optional(),
    error: z.looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
    inputRequests: z.record(z.string(), z.unknown()).optional(),
  });
  return { detailed, ack: z.looseObject({}) };
}
let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = () => (built ??= buildSchemas());
type DetailedTask = z.infer<ReturnType<typeof buildSchemas>['detailed']>;

/** The task a tools/call created, if it did. */
export function createdTask(result: CallToolResult): DetailedTask | undefined {
  const raw = result._meta?.[CREATED_TASK_META_KEY];
  if (raw === undefined) return undefined;
  const parsed = schemas().detailed.safeParse(raw);
  if (!parsed.success) throw new McpClientError('decode', `The MCP server created a malformed task: ${parsed.error.message}`);
  return parsed.data;
}

export interface TaskAttempt {
  /** Aborts on the caller's cancellation and on the call's deadline: the task is then cancelled. */
  signal: AbortSignal;
  timeout: number;
  onprogress?: (progress: Progress) => void;
}

/**
 * Poll a task until it ends, waiting the server's poll interval between polls. A changed status
 * message is reported as progress. Cancellation or the deadline sends tasks/cancel.
 */
export async function awaitTask(client: Client, created: DetailedTask, attempt: TaskAttempt): Promise<CallToolResult> {
  const { signal } = attempt;
  const taskId = created.taskId;
  let finished = false;
  const cancel = () => {
    if (finished) return;
    finished = true;
    // The call's own signal has fired; the cancel request gets a short budget of its own.
    void client.request({ method: 'tasks/cancel', params: { taskId } }, schemas().ack, { timeout: CANCEL_TIMEOUT_MS }).catch(() => {});
  };
  signal.addEventListener('abort', cancel, { once: true });
  // This module loads on a call's first task, so the call may have been aborted meanwhile.
  if (signal.aborted) cancel();
  let task = created;
  let reported = created.statusMessage;
  let updates = 0;
  try {
    for (;;) {
      switch (task.status) {
        case 'completed':
          finished = true;
          return (task.result ?? { content: [] }) as CallToolResult;
        case 'failed':
          finished = true;
          throw task.error
            ? new ProtocolError(task.error.code, task.error.message, task.error.data)
            : new McpClientError('protocol', `The MCP server's task ${taskId} failed without an error`);
        case 'cancelled':
          finished = true;
          throw new McpClientError('protocol', `The MCP server cancelled task ${taskId}`);
        case 'input_required':
          // Answering a task's input requests (tasks/update) is not implemented: end it, never hang.
          cancel();
          throw new McpClientError('protocol', `The MCP server's task ${taskId} asked for input, which switchboard does not provide to tasks yet`);
        case 'working':
          break;
      }
      await sleep(Math.max(task.pollIntervalMs ?? DEFAULT_TASK_POLL_MS, MIN_TASK_POLL_MS), signal);
      task = await client.request({ method: 'tasks/get', params: { taskId } }, schemas().detailed, { signal, timeout: attempt.timeout });
      if (task.taskId !== taskId) throw new McpClientError('decode', `tasks/get for ${taskId} answered for task ${task.taskId}`);
      if (task.statusMessage !== undefined && task.statusMessage !== reported) {
        reported = task.statusMessage;
        attempt.onprogress?.({ progress: ++updates, message: task.statusMessage });
      }
    }
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
