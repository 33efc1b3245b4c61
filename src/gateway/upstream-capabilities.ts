// What the gateway declares to its upstream servers (everything it can relay: form and URL
// elicitation, sampling with tools and context, roots), and the refusal it answers on behalf of a
// calling client that lacks the capability an upstream's request needs.
import { ProtocolError, ProtocolErrorCode, type ClientCapabilities } from '@modelcontextprotocol/server';
import type { McpClientOptions } from '../mcp-client/index.js';

/** The client options of every upstream connection of a gateway (one pool for all its clients). */
export const UPSTREAM_CLIENT_OPTIONS: Pick<McpClientOptions, 'elicitationCapability' | 'samplingCapability'> = {
  elicitationCapability: { form: {}, url: {} },
  samplingCapability: { context: {}, tools: {} },
};

export type RelayedMethod = 'elicitation/create' | 'sampling/createMessage';

/**
 * Why the calling client cannot take this request, as the error that client's own SDK would answer
 * with (method not found without the capability; invalid params for an elicitation mode or sampling
 * feature it did not declare); undefined when it can.
 */
export function refusalFor(method: RelayedMethod, params: unknown, client: ClientCapabilities | undefined): ProtocolError | undefined {
  const p = (params ?? {}) as Record<string, unknown>;
  if (method === 'elicitation/create') {
    const elicitation = client?.elicitation;
    if (!elicitation) return new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found: the client does not support elicitation');
    // `{}` is the 2025-06-18 shape: form only.
    const form = elicitation.form !== undefined || Object.keys(elicitation).length === 0;
    const url = elicitation.url !== undefined;
    if (p.mode === 'url' && !url) return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Client does not support URL-mode elicitation requests');
    if (p.mode !== 'url' && !form) return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Client does not support form-mode elicitation requests');
    return undefined;
  }
  const sampling = client?.sampling;
  if (!sampling) return new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found: the client does not support sampling');
  if ((p.tools !== undefined || p.toolChoice !== undefined) && !sampling.tools) {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Client does not support sampling tools capability');
  }
  if (p.includeContext !== undefined && p.includeContext !== 'none' && !sampling.context) {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Client does not support sampling context capability');
  }
  return undefined;
}
