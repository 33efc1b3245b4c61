// The SDK server a gateway client talks to, able to answer a task-augmented tools/call with a task.
// The SDK validates every tools/call result as a CallToolResult (it has no runtime for the 2025-11-25
// tasks vocabulary), which would turn the upstream's CreateTaskResult into an error; this subclass
// lets exactly that shape through, for requests that asked for a task.
import { Server, type CallToolResult } from '@modelcontextprotocol/server';

type Handler = Parameters<Server['_wrapHandler']>[1];

class CreatedTask {
  constructor(readonly result: Record<string, unknown>) {}
}

/** What the tools/call handler returns for a call the upstream answered with a task (`{task}`). */
export function createdTaskResult(result: Record<string, unknown>): CallToolResult {
  return new CreatedTask(result) as unknown as CallToolResult;
}

/** Thrown through the SDK's result validation so that a created task skips it. */
class TaskEscape extends Error {
  constructor(readonly created: CreatedTask) {
    super('task created');
  }
}

export class GatewayServer extends Server {
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
