// The 2025-11-25 tasks vocabulary passed through as it is (a gateway relays it between its client and
// the upstream that owns the task): a task-augmented tools/call and the tasks/* requests. The SDK keeps
// these methods for interoperability but decodes no CreateTaskResult for tools/call, so these requests
// name their own loose result shape.
import { z } from 'zod';

/** The requests about a task that a server declaring the `tasks` capability answers. */
export type TaskMethod = 'tasks/get' | 'tasks/result' | 'tasks/list' | 'tasks/cancel';

/** Any JSON object: the server's answer, passed on unchanged. */
export const PassThroughResult = z.looseObject({});
export type PassThroughResult = z.infer<typeof PassThroughResult>;

/** notifications/tasks/status params: a task, kept whole (the SDK types no handler for it). */
export const TaskStatusParams = z.looseObject({ taskId: z.string(), status: z.string() });
export type TaskStatusParams = z.infer<typeof TaskStatusParams>;
