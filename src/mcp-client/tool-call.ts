// One tools/call on a connection: the request's trace context in `_meta`, the 2026-07-28
// input-required rounds when the caller answers questions, and a task the server created polled to
// its result within the same attempt; the tools last listed, whose definitions each call sends.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { metaWithTrace, type TraceContext } from '../util/telemetry/index.js';
import type { Connection } from './connection.js';
import { carriesCreatedTask } from './inbound-messages.js';
import { runInputRounds } from './input-rounds.js';
import type { AttemptOptions, OperationSpec } from './operation.js';
import type { InputRequestOptions } from './types.js';

/** Per-call options of `McpClient.callTool`. */
export interface CallToolOptions extends InputRequestOptions {
  onProgress?: OperationSpec['onProgress'];
  /** Request `_meta` sent with the call. */
  meta?: Record<string, unknown>;
}

/** The call, as McpClient asks for it. */
export interface ToolCall {
  name: string;
  args: Record<string, unknown> | undefined;
  options: CallToolOptions;
  /** The tool's listed definition without its outputSchema (see McpClient.callTool). */
  toolDefinition: Tool | undefined;
}

export async function callToolOn(c: Connection, a: AttemptOptions, trace: TraceContext | undefined, call: ToolCall): Promise<CallToolResult> {
  const { name, args, options, toolDefinition } = call;
  // The request's span is the parent the server continues.
  const meta = metaWithTrace(options.meta, trace);
  const params = { name, ...(args ? { arguments: args } : {}), ...(meta ? { _meta: meta } : {}) };
  const { inputs } = options;
  const result =
    inputs && c.client.getProtocolEra() === 'modern'
      ? await runInputRounds(c.client, 'tools/call', params, a, inputs, (p, o) => c.client.callTool(p as typeof params, toolDefinition ? { ...o, toolDefinition } : o))
      : await c.client.callTool(params, toolDefinition ? { ...a, toolDefinition } : a);
  // A task is polled inside the same attempt, so the call's deadline and signal bound it too.
  if (!carriesCreatedTask(result)) return result;
  // Loaded on the first task: most servers never create one.
  const { awaitTask, createdTask } = await import('./tasks.js');
  const task = createdTask(result);
  return task ? awaitTask(c.client, task, a) : result;
}

/** The tools a server last listed, and each one's definition for calling it. */
export class KnownTools {
  private last: Tool[] | undefined;
  private definitions = new Map<string, Tool>();

  /** Takes a fresh list; true when it differs from the one before. */
  update(tools: Tool[]): boolean {
    const changed = this.last !== undefined && JSON.stringify(this.last) !== JSON.stringify(tools);
    this.last = tools;
    this.definitions = new Map(tools.map((t) => [t.name, { ...t, outputSchema: undefined }]));
    return changed;
  }

  /**
   * The definition lets the SDK mirror parameters into headers (2026-07-28 HTTP); without its
   * outputSchema the SDK does not reject results that stray from it (Codex does not validate).
   */
  definition(name: string): Tool | undefined {
    return this.definitions.get(name);
  }
}
