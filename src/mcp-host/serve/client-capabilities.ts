// What a client can be asked, by the capabilities it declared: the refusal a 2025 client's own SDK
// would answer for a request it cannot take (method not found without the capability, invalid params
// for a mode or feature it did not declare), and the capability a 2026-07-28 request lacks (-32021).
import { ProtocolError, ProtocolErrorCode, type ClientCapabilities, type InputRequest } from '@modelcontextprotocol/server';

/** Why a 2025 client cannot take `request`, as its own SDK would say it; undefined when it can. */
export function legacyRefusal(request: InputRequest, client: ClientCapabilities | undefined): ProtocolError | undefined {
  const p = ((request as { params?: unknown }).params ?? {}) as Record<string, unknown>;
  if (request.method === 'roots/list') return client?.roots ? undefined : new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found: the client does not support roots');
  if (request.method === 'elicitation/create') {
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

/** The capability `request` needs that a 2026-07-28 request's `declared` lacks, as the -32021 error names it; undefined when covered. */
export function missingCapability(request: InputRequest, declared: ClientCapabilities | undefined): ClientCapabilities | undefined {
  const params = (request as { params?: Record<string, unknown> }).params;
  if (request.method === 'sampling/createMessage') return declared?.sampling ? undefined : { sampling: {} };
  if (request.method === 'roots/list') return declared?.roots ? undefined : { roots: {} };
  const elicitation = declared?.elicitation;
  const url = params?.mode === 'url';
  if (!elicitation) return { elicitation: url ? { url: {} } : { form: {} } };
  const form = elicitation.form !== undefined || Object.keys(elicitation).length === 0;
  if (url ? elicitation.url === undefined : !form) return { elicitation: url ? { url: {} } : { form: {} } };
  return undefined;
}
