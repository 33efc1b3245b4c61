// An SDK server able to answer a task-augmented tools/call with a task (2025-11-25 tasks). The SDK
// validates every tools/call result as a CallToolResult (it keeps the tasks vocabulary but has no
// runtime for it), which would turn a CreateTaskResult into an error; this subclass lets exactly the
// results marked with createdTaskResult() through.
import { Server, type CallToolResult } from '@modelcontextprotocol/server';

type Handler = Parameters<Server['_wrapHandler']>[1];

class CreatedTask {
  constructor(readonly result: Record<string, unknown>) {}
}

/** What a tools/call handler returns to answer with a CreateTaskResult (`{task}`). */
export function createdTaskResult(result: Record<string, unknown>): CallToolResult {
  return new CreatedTask(result) as unknown as CallToolResult;
}

/** Thrown through the SDK's result validation so that a created task skips it. */
class TaskEscape extends Error {
  constructor(readonly created: CreatedTask) {
    super('task created');
  }
}

export class TaskServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    if (method !== 'tools/call') return super._wrapHandler(method, handler);
    const wrapped = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if (result instanceof CreatedTask) throw new TaskEscape(result);
      return result;
    });
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (err) {
        if (err instanceof TaskEscape) return err.created.result;
        throw err;
      }
    };
  }
}
