// What the SDK client receives from the transport, adjusted after connect: responses kept behind their
// notifications, and a created task (tasks extension) carried through the SDK's tools/call decoding.
// Kept apart from tasks.ts so a connection loads only these shims; the task runtime loads on a task.
import type { CallToolResult, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/** Where a created task rides through the SDK's tools/call decoding (never sent to a server). */
export const CREATED_TASK_META_KEY = 'switchboard/created-task';

const isResponse = (message: JSONRPCMessage): boolean => 'id' in message && !('method' in message);
const isResultObject = (message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number; result: Record<string, unknown> } =>
  'id' in message && 'result' in message && typeof message.result === 'object' && message.result !== null;

/**
 * Call after `client.connect(transport)`: what the SDK client receives, adjusted in one place.
 * - Responses are handed on one microtask later, in order. The SDK client handles a notification one
 *   microtask after it arrives but a response at once, so a progress notification read in the same
 *   chunk as its request's result would find the request finished and be dropped ("unknown token").
 * - A CreateTaskResult (`resultType: "task"`) reaches the SDK as an empty complete tool result
 *   carrying the task, which tasks.ts's `createdTask` takes back out.
 */
export function adjustInbound(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  const onmessage: typeof deliver = (message, extra) => {
    if (!isResponse(message)) return deliver(message, extra);
    const adjusted = carryingCreatedTask(message);
    queueMicrotask(() => deliver(adjusted, extra));
  };
  transport.onmessage = onmessage;
}

/** A task-creating result as the SDK's tools/call decoding accepts it; any other message as it is. */
function carryingCreatedTask(message: JSONRPCMessage): JSONRPCMessage {
  if (!isResultObject(message) || message.result.resultType !== 'task') return message;
  const task = { ...message.result };
  delete task.resultType;
  const carried = { resultType: 'complete', content: [], _meta: { [CREATED_TASK_META_KEY]: task } };
  return { ...message, result: carried } as JSONRPCMessage;
}

/** Whether a tools/call result carries a created task (decoded and driven by tasks.ts). */
export function carriesCreatedTask(result: CallToolResult): boolean {
  return result._meta?.[CREATED_TASK_META_KEY] !== undefined;
}
