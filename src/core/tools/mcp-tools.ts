// MCP tools as model tools: each catalog entry becomes a Tool whose run() calls through the
// McpToolSource, emits mcp_tool_call_begin/progress/end, and converts the result for the model
// the way Codex does (structuredContent as JSON, images kept as input_image, else the content as JSON).
import { durationFromMs, type EventMsgOf, type McpInvocation } from '../../protocol/index.js';
import { errorMessage, SwitchboardError } from '../../util/index.js';
import type { McpCallToolResult, McpElicitation, McpElicitationResult, McpToolDescriptor, McpToolSource } from '../mcp-tool-source.js';
import type { Tool, ToolContext, ToolOutputItem, ToolResult } from './tool.js';

/** How a thread answers an elicitation raised during one of its tool calls. */
export type ElicitationHandler = (elicitation: McpElicitation, ctx: ToolContext) => Promise<McpElicitationResult>;

/** Text sent to the model for one MCP result is cut past this many bytes (a runaway server must not flood the context). */
export const MAX_MCP_OUTPUT_BYTES = 1024 * 1024;

/** Keep the first `max` bytes of `text` (on a character boundary) and say how much was cut. */
export function capOutputText(text: string, max = MAX_MCP_OUTPUT_BYTES): string {
  const bytes = Buffer.byteLength(text);
  if (bytes <= max) return text;
  const head = Buffer.from(text).subarray(0, max).toString('utf8').replace(/\uFFFD$/, '');
  return `${head}\n[... MCP tool output truncated: ${bytes - Buffer.byteLength(head)} of ${bytes} bytes omitted (limit ${max} bytes) ...]`;
}

/** Codex's conversion of a CallToolResult into function-call output, with text capped at 1 MiB. */
export function mcpResultForModel(result: McpCallToolResult): ToolResult {
  const converted = convertResult(result);
  if (typeof converted.output === 'string') return { ...converted, output: capOutputText(converted.output) };
  let budget = MAX_MCP_OUTPUT_BYTES;
  const output = converted.output.map((item) => {
    if (item.type !== 'input_text') return item;
    const text = capOutputText(item.text, Math.max(budget, 0));
    budget -= Buffer.byteLength(item.text);
    return { ...item, text };
  });
  return { ...converted, output };
}

function convertResult(result: McpCallToolResult): ToolResult {
  const success = result.isError !== true;
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return { output: JSON.stringify(result.structuredContent), success };
  }
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.some((b) => b.type === 'image')) {
    const items: ToolOutputItem[] = content.map((b) => {
      if (b.type === 'text' && typeof b.text === 'string') return { type: 'input_text', text: b.text };
      if (b.type === 'image' && typeof b.data === 'string') {
        const url = b.data.startsWith('data:') ? b.data : `data:${typeof b.mimeType === 'string' ? b.mimeType : 'application/octet-stream'};base64,${b.data}`;
        return { type: 'input_image', image_url: url };
      }
      return { type: 'input_text', text: JSON.stringify(b) };
    });
    return { output: items, success };
  }
  return { output: JSON.stringify(content), success };
}

function progressText(p: { progress: number; total?: number; message?: string }): string {
  if (p.message) return p.message;
  return p.total !== undefined ? `MCP tool progress: ${p.progress}/${p.total}` : `MCP tool progress: ${p.progress}`;
}

export function turnAborted(cause?: unknown): SwitchboardError {
  return new SwitchboardError('turn_aborted', 'turn aborted', { cause });
}

/**
 * Run one MCP-backed call with begin/end events. `call` performs the request; errors become a
 * failed output `tool call error: …`, an abort of the turn is rethrown as `turn_aborted`.
 */
export async function withMcpCallEvents(
  ctx: ToolContext,
  invocation: McpInvocation,
  call: () => Promise<{ result: McpCallToolResult; forModel: ToolResult }>,
): Promise<ToolResult> {
  ctx.emit({ type: 'mcp_tool_call_begin', call_id: ctx.callId, invocation });
  const started = performance.now();
  const end = (result: EventMsgOf<'mcp_tool_call_end'>['result']) =>
    ctx.emit({ type: 'mcp_tool_call_end', call_id: ctx.callId, invocation, duration: durationFromMs(performance.now() - started), result });
  try {
    const { result, forModel } = await call();
    end({ Ok: result });
    return forModel;
  } catch (err) {
    const message = `tool call error: ${errorMessage(err)}`;
    if (ctx.signal.aborted) {
      end({ Err: 'tool call aborted: the turn was interrupted' });
      throw turnAborted(err);
    }
    end({ Err: message });
    return { output: message, success: false };
  }
}

export function createMcpTool(source: McpToolSource, descriptor: McpToolDescriptor, elicit: ElicitationHandler | null): Tool {
  return {
    name: descriptor.name,
    description: descriptor.description,
    parameters: descriptor.inputSchema,
    async run(args, ctx) {
      if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
        return { output: `MCP tool arguments must be a JSON object, got ${JSON.stringify(args)}`, success: false };
      }
      const invocation: McpInvocation = { server: descriptor.server, tool: descriptor.tool, arguments: args };
      return withMcpCallEvents(ctx, invocation, async () => {
        const result = await source.callTool(descriptor.name, args as Record<string, unknown> | undefined, {
          signal: ctx.signal,
          onProgress: (p) => ctx.emit({ type: 'mcp_tool_call_progress', call_id: ctx.callId, message: progressText(p) }),
          ...(elicit ? { onElicitation: (e: McpElicitation) => elicit(e, ctx) } : {}),
        });
        return { result, forModel: mcpResultForModel(result) };
      });
    },
  };
}
