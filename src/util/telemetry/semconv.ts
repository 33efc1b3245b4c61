// Span shapes after the OpenTelemetry semantic conventions for MCP and GenAI: names and attributes
// for MCP requests (served and made), agent turns, model requests and tool calls. Names, methods,
// ids and outcomes only: never argument values or results.
import type { Attributes, SpanSpec } from './telemetry.js';

/** switchboard's own attribute: which configured MCP server a request went to. */
export const ATTR_UPSTREAM = 'switchboard.mcp.server';

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

/**
 * An MCP request as a span: `{mcp.method.name} {target}`, the target a method names (tool, prompt)
 * also in gen_ai attributes. Only the attributes that have a value: built for every request served
 * and made, so written out rather than spread together.
 */
export function mcpSpan(info: McpSpanInfo): SpanSpec {
  const { method, params } = info;
  const attributes: Attributes = { 'mcp.method.name': method };
  if (info.requestId !== undefined) attributes['jsonrpc.request.id'] = String(info.requestId);
  if (info.sessionId !== undefined) attributes['mcp.session.id'] = info.sessionId;
  if (info.protocolVersion !== undefined) attributes['mcp.protocol.version'] = info.protocolVersion;
  if (info.transport !== undefined) attributes['network.transport'] = info.transport;
  if (info.upstream !== undefined) attributes[ATTR_UPSTREAM] = info.upstream;
  const name = typeof params?.name === 'string' ? params.name : undefined;
  let target: string | undefined;
  if (method === 'tools/call') {
    target = name;
    if (name !== undefined) attributes['gen_ai.tool.name'] = name;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (method === 'prompts/get') {
    target = name;
    if (name !== undefined) attributes['gen_ai.prompt.name'] = name;
  } else if (method.startsWith('resources/') && typeof params?.uri === 'string') {
    attributes['mcp.resource.uri'] = params.uri;
  }
  const spec: SpanSpec = { name: target ? `${method} ${target}` : method, kind: info.kind, attributes };
  if (info.parent) spec.parent = info.parent;
  return spec;
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
