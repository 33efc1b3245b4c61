// Span shapes after the OpenTelemetry semantic conventions for MCP and GenAI: names and attributes
// for MCP requests (served and made), agent turns, model requests and tool calls. Names, methods,
// ids and outcomes only: never argument values or results.
import type { Attributes, SpanSpec } from './telemetry.js';

/** switchboard's own attribute: which configured MCP server a request went to. */
export const ATTR_UPSTREAM = 'switchboard.mcp.server';

/** The target a method names (tool, prompt), which the span name and gen_ai attributes carry. */
function mcpTarget(method: string, params: Record<string, unknown> | undefined): Attributes & { target?: string } {
  const name = typeof params?.name === 'string' ? params.name : undefined;
  if (method === 'tools/call') return { target: name, 'gen_ai.tool.name': name, 'gen_ai.operation.name': 'execute_tool' };
  if (method === 'prompts/get') return { target: name, 'gen_ai.prompt.name': name };
  if (method.startsWith('resources/') && typeof params?.uri === 'string') return { 'mcp.resource.uri': params.uri };
  return {};
}

export interface McpSpanInfo {
  kind: 'server' | 'client';
  method: string;
  params?: Record<string, unknown> | undefined;
  requestId?: string | number;
  sessionId?: string;
  protocolVersion?: string;
  /** `pipe` (stdio) or `tcp` (HTTP). */
  transport?: 'pipe' | 'tcp';
  upstream?: string;
  parent?: SpanSpec['parent'];
}

/** An MCP request as a span: `{mcp.method.name} {target}`. */
export function mcpSpan(info: McpSpanInfo): SpanSpec {
  const { target, ...targetAttrs } = mcpTarget(info.method, info.params);
  return {
    name: target ? `${info.method} ${target}` : info.method,
    kind: info.kind,
    attributes: {
      'mcp.method.name': info.method,
      'jsonrpc.request.id': info.requestId === undefined ? undefined : String(info.requestId),
      'mcp.session.id': info.sessionId,
      'mcp.protocol.version': info.protocolVersion,
      'network.transport': info.transport,
      [ATTR_UPSTREAM]: info.upstream,
      ...targetAttrs,
    },
    ...(info.parent ? { parent: info.parent } : {}),
  };
}

/** One agent turn (GenAI `invoke_agent`). */
export function agentTurnSpan(info: { threadId: string; turnId: string; model: string; provider: string }): SpanSpec {
  return {
    name: 'invoke_agent switchboard',
    kind: 'internal',
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'switchboard',
      'gen_ai.conversation.id': info.threadId,
      'switchboard.turn.id': info.turnId,
      'gen_ai.request.model': info.model,
      'gen_ai.provider.name': info.provider,
    },
  };
}

/** One model request (GenAI `chat`); usage is added when the response completes. */
export function modelRequestSpan(info: { model: string; provider: string; threadId: string }): SpanSpec {
  return {
    name: `chat ${info.model}`,
    kind: 'client',
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': info.model, 'gen_ai.provider.name': info.provider, 'gen_ai.conversation.id': info.threadId },
  };
}

/** One tool call of the agent (GenAI `execute_tool`). */
export function toolCallSpan(info: { tool: string; callId: string }): SpanSpec {
  return {
    name: `execute_tool ${info.tool}`,
    kind: 'internal',
    attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': info.tool, 'gen_ai.tool.call.id': info.callId },
  };
}
